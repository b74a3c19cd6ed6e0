# mk/libcuda.sh, sourced by the scripts that run on the GPU machine
# (mk/gpu-run.sh as .gpu/run.sh, which finds it beside itself as
# .gpu/libcuda.sh; mk/gpu-profile.sh; mk/cub-bench.sh): find_libcuda
# prints the driver's libcuda.so.1: CUGEN_LIBCUDA if set, else ldconfig's,
# else the first of the driver's usual directories that has it; nothing
# if none has.
find_libcuda() {
	if [ -n "${CUGEN_LIBCUDA:-}" ]; then
		echo "$CUGEN_LIBCUDA"
		return
	fi
	_lib=$(ldconfig -p 2>/dev/null | awk '/libcuda\.so\.1 /{print $NF; exit}')
	for _d in /usr/local/nvidia/lib64 /usr/lib/x86_64-linux-gnu /usr/lib64; do
		[ -z "$_lib" ] && [ -e "$_d/libcuda.so.1" ] && _lib=$_d/libcuda.so.1
	done
	[ -n "$_lib" ] && echo "$_lib"
	return 0
}
