// cufile_ref is the C reference of e2e's TestCuFileReadToDevice12: the
// same steps (a CUDA context, a 1 MiB file, cuFileDriverOpen,
// cuFileHandleRegister on an O_DIRECT descriptor, cuFileRead into device
// memory, a comparison with the file) with the same step lines
// ("cufile step NAME: ok" or "FAIL"), so a GPU run shows whether C
// succeeds where Go fails under the same CUFILE_* environment. Where
// cuFileHandleRegister fails it tries once more with a descriptor without
// O_DIRECT. mk/gpu-run.sh builds it with
//
//	nvcc -O2 -D_GNU_SOURCE -o cufile_ref cufile_ref.c -lcufile
//
// (the CUDA runtime linked statically, nvcc's default)
//
// and runs it as cufile_ref DIR (the data file goes in DIR, default ".").
// It exits 0 when the device copy equals the file.
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cuda_runtime_api.h>
#include <cufile.h>

extern char **environ;

enum { N = 1 << 20 };

static void ok(const char *step) { printf("cufile step %s: ok\n", step); }

static int fail(const char *step, const char *why)
{
	printf("cufile step %s: FAIL: %s\n", step, why);
	return 1;
}

// status is a cuFile status in words, with CUDA's result when there is one.
static const char *status(CUfileError_t st)
{
	static char buf[256];
	snprintf(buf, sizeof buf, "%s (%d), CUDA result %d", cufileop_status_error(st.err), (int)st.err, (int)st.cu_err);
	return buf;
}

// regist registers fd, or says why not.
static int regist(const char *step, int fd, CUfileHandle_t *fh)
{
	CUfileDescr_t descr;
	memset(&descr, 0, sizeof descr);
	descr.type = CU_FILE_HANDLE_TYPE_OPAQUE_FD;
	descr.handle.fd = fd;
	CUfileError_t st = cuFileHandleRegister(fh, &descr);
	if (st.err != CU_FILE_SUCCESS)
		return fail(step, status(st));
	ok(step);
	return 0;
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : ".";
	char path[4096], why[512];
	for (char **e = environ; *e; e++)
		if (strncmp(*e, "CUFILE_", 7) == 0 || strncmp(*e, "LD_LIBRARY_PATH=", 16) == 0)
			printf("env %s\n", *e);

	int version = 0;
	CUfileError_t st = cuFileGetVersion(&version);
	if (st.err != CU_FILE_SUCCESS)
		return fail("cuFileGetVersion", status(st));
	printf("cuFile version %d\n", version);

	// cuFile wants a CUDA context before it opens (cuDF's cudaFree(0))
	cudaError_t ce = cudaFree(0);
	if (ce != cudaSuccess)
		return fail("context", cudaGetErrorString(ce));
	ok("context");

	unsigned char *want = malloc(N), *host = malloc(N);
	for (int i = 0; i < N; i++)
		want[i] = (unsigned char)(i * 7 + (i >> 11));
	snprintf(path, sizeof path, "%s/cufile-ref-data", dir);
	int wfd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (wfd < 0 || write(wfd, want, N) != N || fsync(wfd) != 0) {
		snprintf(why, sizeof why, "%s: %s", path, strerror(errno));
		return fail("data file", why);
	}
	close(wfd);
	ok("data file");

	st = cuFileDriverOpen();
	if (st.err != CU_FILE_SUCCESS) {
		unlink(path);
		return fail("cuFileDriverOpen", status(st));
	}
	ok("cuFileDriverOpen");
	CUfileDrvProps_t props;
	memset(&props, 0, sizeof props);
	st = cuFileDriverGetProperties(&props);
	if (st.err == CU_FILE_SUCCESS)
		printf("driver properties: nvfs %u.%u, status flags %#x, control flags %#x, feature flags %#x, max direct I/O %zu\n",
		       props.nvfs.major_version, props.nvfs.minor_version, props.nvfs.dstatusflags, props.nvfs.dcontrolflags,
		       props.fflags, props.nvfs.max_direct_io_size);
	else
		printf("cuFileDriverGetProperties: %s\n", status(st));

	int fd = open(path, O_RDONLY | O_DIRECT);
	if (fd < 0) {
		snprintf(why, sizeof why, "O_DIRECT: %s", strerror(errno));
		unlink(path);
		return fail("open", why);
	}
	ok("open");
	CUfileHandle_t fh;
	if (regist("cuFileHandleRegister", fd, &fh) != 0) {
		close(fd);
		fd = open(path, O_RDONLY);
		if (fd < 0 || regist("cuFileHandleRegister (no O_DIRECT)", fd, &fh) != 0) {
			unlink(path);
			return 1;
		}
	}

	void *dbuf = NULL;
	ce = cudaMalloc(&dbuf, N);
	if (ce != cudaSuccess)
		return fail("cudaMalloc", cudaGetErrorString(ce));
	ok("cudaMalloc");
	ssize_t got = cuFileRead(fh, dbuf, N, 0, 0);
	if (got != N) {
		if (got < 0 && IS_CUFILE_ERR((int)got))
			snprintf(why, sizeof why, "returned %zd: %s", got, CUFILE_ERRSTR((int)got));
		else if (got < 0)
			snprintf(why, sizeof why, "returned %zd: %s", got, strerror((int)-got));
		else
			snprintf(why, sizeof why, "read %zd bytes, want %d", got, N);
		unlink(path);
		return fail("cuFileRead", why);
	}
	ok("cuFileRead");
	ce = cudaMemcpy(host, dbuf, N, cudaMemcpyDeviceToHost);
	if (ce != cudaSuccess)
		return fail("cudaMemcpy", cudaGetErrorString(ce));
	ok("cudaMemcpy");
	if (memcmp(host, want, N) != 0)
		return fail("compare", "the device copy differs from the file");
	ok("compare");

	cuFileHandleDeregister(fh);
	close(fd);
	cudaFree(dbuf);
	cuFileDriverClose();
	unlink(path);
	printf("cuFileRead: %zd bytes into device memory, equal to the file\n", got);
	return 0;
}
