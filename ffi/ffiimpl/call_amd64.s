//go:build linux

#include "textflag.h"
#include "go_asm.h"

// trampoline(f *Frame) runs on the system stack, entered from
// runtime.cgocall/asmcgocall like a C function: f arrives in DI, SP is
// 8 mod 16. It copies f's stack words to the bottom of its own frame, loads
// the argument registers, calls f.fn, and stores rax, rdx, xmm0 and xmm1
// back into f.
//
// Frame: numStackWords outgoing words, then the saved *Frame, then padding
// so that the assembler's frame (this + saved BP) keeps SP 16-byte aligned at
// the CALL. TEXT wants a literal: 272 = 32*8 + 16, and frame_amd64.go fails
// to compile if numStackWords changes without trampolineFrame.
#define OUTGOING (const_numStackWords*8)
#define SAVED_F OUTGOING

GLOBL ·trampolineABI0(SB), NOPTR|RODATA, $8
DATA ·trampolineABI0(SB)/8, $·trampoline(SB)

TEXT ·trampoline(SB), NOSPLIT, $272-0
	MOVQ DI, SAVED_F(SP)
	MOVQ DI, R11

	// Outgoing stack words: a short loop, most CUDA calls have none.
	MOVLQZX Frame_nstack(R11), CX
	XORQ    DX, DX
copy:
	CMPQ DX, CX
	JAE  copied
	MOVQ Frame_stack(R11)(DX*8), AX
	MOVQ AX, 0(SP)(DX*8)
	INCQ DX
	JMP  copy
copied:
	MOVQ Frame_floats+0(R11), X0
	MOVQ Frame_floats+8(R11), X1
	MOVQ Frame_floats+16(R11), X2
	MOVQ Frame_floats+24(R11), X3
	MOVQ Frame_floats+32(R11), X4
	MOVQ Frame_floats+40(R11), X5
	MOVQ Frame_floats+48(R11), X6
	MOVQ Frame_floats+56(R11), X7

	MOVQ Frame_ints+0(R11), DI
	MOVQ Frame_ints+8(R11), SI
	MOVQ Frame_ints+16(R11), DX
	MOVQ Frame_ints+24(R11), CX
	MOVQ Frame_ints+32(R11), R8
	MOVQ Frame_ints+40(R11), R9

	// AL: upper bound of vector registers used, needed by variadic callees.
	MOVLQZX Frame_nfloat(R11), AX

	MOVQ Frame_fn(R11), R10
	CALL R10

	MOVQ SAVED_F(SP), R11
	MOVQ AX, Frame_ints+0(R11)
	MOVQ DX, Frame_ints+8(R11)
	MOVQ X0, Frame_floats+0(R11)
	MOVQ X1, Frame_floats+8(R11)
	XORL AX, AX // cgocall's errno result: none
	RET

// trampolineInts(c *intsCall) is CallInts's trampoline: c arrives in DI,
// SP is 8 mod 16. It loads the six integer argument registers from c,
// calls c.fn and stores rax in c.ret. The frame holds the saved c; 16
// keeps SP 16-byte aligned at the CALL (16 + saved BP + return address).
GLOBL ·trampolineIntsABI0(SB), NOPTR|RODATA, $8
DATA ·trampolineIntsABI0(SB)/8, $·trampolineInts(SB)

TEXT ·trampolineInts(SB), NOSPLIT, $16-0
	MOVQ DI, 0(SP)
	MOVQ DI, R11
	MOVQ intsCall_args+0(R11), DI
	MOVQ intsCall_args+8(R11), SI
	MOVQ intsCall_args+16(R11), DX
	MOVQ intsCall_args+24(R11), CX
	MOVQ intsCall_args+32(R11), R8
	MOVQ intsCall_args+40(R11), R9
	XORL AX, AX // AL: no vector registers, for a variadic callee
	MOVQ intsCall_fn(R11), R10
	CALL R10
	MOVQ 0(SP), R11
	MOVQ AX, intsCall_ret(R11)
	XORL AX, AX // cgocall's errno result: none
	RET
