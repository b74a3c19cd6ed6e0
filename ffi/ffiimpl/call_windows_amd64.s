#include "textflag.h"
#include "go_asm.h"

// trampoline(f *Frame) runs on the system stack, entered from
// runtime.cgocall (asmcgocall_landingpad) like a Win64 function: f arrives
// in CX, SP is 8 mod 16. It copies f's stack words above the 32 bytes of
// shadow space at the bottom of its own frame, loads the four argument
// positions (RCX, RDX, R8, R9 and XMM0-XMM3, both, see frame_windows_amd64.go),
// calls f.fn, and stores rax and xmm0 back into f. It uses only registers
// the convention lets a callee clobber (RDI and RSI are callee-saved).
//
// Frame: 32 bytes of shadow space, numStackWords outgoing words, the saved
// *Frame, padding so that the assembler's frame (this + saved BP) keeps SP
// 16-byte aligned at the CALL. 304 = 32 + 32*8 + 16; frame_windows_amd64.go
// fails to compile if numStackWords changes without trampolineFrame.
#define SHADOW 32
#define SAVED_F (SHADOW+const_numStackWords*8)

GLOBL ·trampolineABI0(SB), NOPTR|RODATA, $8
DATA ·trampolineABI0(SB)/8, $·trampoline(SB)

TEXT ·trampoline(SB), NOSPLIT, $304-0
	MOVQ CX, SAVED_F(SP)
	MOVQ CX, R11

	MOVLQZX Frame_nstack(R11), CX
	XORQ    DX, DX
copy:
	CMPQ DX, CX
	JAE  copied
	MOVQ Frame_stack(R11)(DX*8), AX
	MOVQ AX, SHADOW(SP)(DX*8)
	INCQ DX
	JMP  copy
copied:
	MOVQ Frame_floats+0(R11), X0
	MOVQ Frame_floats+8(R11), X1
	MOVQ Frame_floats+16(R11), X2
	MOVQ Frame_floats+24(R11), X3

	MOVQ Frame_ints+0(R11), CX
	MOVQ Frame_ints+8(R11), DX
	MOVQ Frame_ints+16(R11), R8
	MOVQ Frame_ints+24(R11), R9

	MOVQ Frame_fn(R11), R10
	CALL R10

	MOVQ SAVED_F(SP), R11
	MOVQ AX, Frame_ints+0(R11)
	MOVQ X0, Frame_floats+0(R11)
	XORL AX, AX // cgocall's errno result: none
	RET

// trampolineInts(c *intsCall) is CallInts's trampoline: c arrives in CX,
// SP is 8 mod 16. Arguments 0-3 go in RCX, RDX, R8, R9, 4 and 5 on the
// stack above the shadow space. Frame: 32 shadow + 16 arguments + the saved
// c + padding = 64, which keeps SP 16-byte aligned at the CALL.
GLOBL ·trampolineIntsABI0(SB), NOPTR|RODATA, $8
DATA ·trampolineIntsABI0(SB)/8, $·trampolineInts(SB)

TEXT ·trampolineInts(SB), NOSPLIT, $64-0
	MOVQ CX, 48(SP)
	MOVQ CX, R11
	MOVQ intsCall_args+32(R11), AX
	MOVQ AX, 32(SP)
	MOVQ intsCall_args+40(R11), AX
	MOVQ AX, 40(SP)
	MOVQ intsCall_args+0(R11), CX
	MOVQ intsCall_args+8(R11), DX
	MOVQ intsCall_args+16(R11), R8
	MOVQ intsCall_args+24(R11), R9
	MOVQ intsCall_fn(R11), R10
	CALL R10
	MOVQ 48(SP), R11
	MOVQ AX, intsCall_ret(R11)
	XORL AX, AX // cgocall's errno result: none
	RET
