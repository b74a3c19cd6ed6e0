// A stand-in for Windows' bcryptprimitives.dll, which Debian's wine 8.0
// lacks and the Go runtime (1.22 on) loads at start for ProcessPrng. It
// forwards to advapi32's RtlGenRandom (SystemFunction036), which wine has.
// make test-windows builds it with mingw-w64 into the wine prefix's
// system32, the only directory the runtime loads it from.
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buf, ULONG len);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T n)
{
	while (n > 0) {
		ULONG k = n > 0x10000000 ? 0x10000000 : (ULONG)n;
		if (!SystemFunction036(data, k))
			return FALSE;
		data += k;
		n -= k;
	}
	return TRUE;
}
