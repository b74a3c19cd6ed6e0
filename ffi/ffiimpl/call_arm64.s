//go:build linux

#include "textflag.h"
#include "go_asm.h"

// trampoline(f *Frame) runs on the system stack, entered from
// runtime.cgocall/asmcgocall like a C function: f arrives in R0. It copies
// f's stack words to the bottom of a frame it allocates itself (the Go
// assembler's own frame keeps the saved LR at 0(RSP), where the callee
// expects its first stack argument), loads the argument registers, calls
// f.fn, and stores x0, x1 and d0-d3 back into f.
//
// The declared frame is $0, but the BL makes the function non-leaf, so the
// assembler still saves LR and FP.
#define OUTGOING (const_numStackWords*8)
#define SAVED_F OUTGOING
#define FRAME (OUTGOING+16) // 16-byte aligned

GLOBL ·trampolineABI0(SB), NOPTR|RODATA, $8
DATA ·trampolineABI0(SB)/8, $·trampoline(SB)

TEXT ·trampoline(SB), NOSPLIT, $0-0
	SUB  $FRAME, RSP
	MOVD R0, SAVED_F(RSP)
	MOVD R0, R9

	// Outgoing stack words: a short loop, most CUDA calls have none.
	MOVWU Frame_nstack(R9), R10
	ADD   $Frame_stack, R9, R11
	MOVD  RSP, R12
copy:
	CBZ    R10, copied
	MOVD.P 8(R11), R13
	MOVD.P R13, 8(R12)
	SUB    $1, R10
	B      copy
copied:
	FMOVD Frame_floats+0(R9), F0
	FMOVD Frame_floats+8(R9), F1
	FMOVD Frame_floats+16(R9), F2
	FMOVD Frame_floats+24(R9), F3
	FMOVD Frame_floats+32(R9), F4
	FMOVD Frame_floats+40(R9), F5
	FMOVD Frame_floats+48(R9), F6
	FMOVD Frame_floats+56(R9), F7

	MOVD Frame_ints+0(R9), R0
	MOVD Frame_ints+8(R9), R1
	MOVD Frame_ints+16(R9), R2
	MOVD Frame_ints+24(R9), R3
	MOVD Frame_ints+32(R9), R4
	MOVD Frame_ints+40(R9), R5
	MOVD Frame_ints+48(R9), R6
	MOVD Frame_ints+56(R9), R7
	MOVD Frame_x8(R9), R8

	MOVD Frame_fn(R9), R10
	BL   (R10)

	MOVD  SAVED_F(RSP), R9
	ADD   $FRAME, RSP
	MOVD  R0, Frame_ints+0(R9)
	MOVD  R1, Frame_ints+8(R9)
	FMOVD F0, Frame_floats+0(R9)
	FMOVD F1, Frame_floats+8(R9)
	FMOVD F2, Frame_floats+16(R9)
	FMOVD F3, Frame_floats+24(R9)
	MOVD  $0, R0 // cgocall's errno result: none
	RET

// trampolineInts(c *intsCall) is CallInts's trampoline: c arrives in R0.
// It loads x0-x5 from c, calls c.fn and stores x0 in c.ret. The frame is
// 16 bytes for the saved c, keeping RSP 16-byte aligned; the BL makes the
// assembler save LR and FP as in trampoline.
GLOBL ·trampolineIntsABI0(SB), NOPTR|RODATA, $8
DATA ·trampolineIntsABI0(SB)/8, $·trampolineInts(SB)

TEXT ·trampolineInts(SB), NOSPLIT, $0-0
	SUB  $16, RSP
	MOVD R0, 0(RSP)
	MOVD R0, R9
	MOVD intsCall_args+0(R9), R0
	MOVD intsCall_args+8(R9), R1
	MOVD intsCall_args+16(R9), R2
	MOVD intsCall_args+24(R9), R3
	MOVD intsCall_args+32(R9), R4
	MOVD intsCall_args+40(R9), R5
	MOVD intsCall_fn(R9), R10
	BL   (R10)
	MOVD 0(RSP), R9
	ADD  $16, RSP
	MOVD R0, intsCall_ret(R9)
	MOVD $0, R0 // cgocall's errno result: none
	RET
