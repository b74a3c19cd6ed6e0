// A stand-in NVTX injection library for package nvtx's tests: what a
// profiler's library does when NVTX_INJECTION64_PATH names it. Its
// InitializeInjectionNvtx2 asks the program for its export tables, fills
// the CORE and CORE2 tables with the functions below, and each function
// logs its call, with its arguments and the calling thread, to a buffer
// the test reads through fake_log. Written for the tests from the NVTX 3
// ABI; it includes no NVIDIA header.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

typedef void (*fnptr)(void);
typedef const void *(*get_export_table_fn)(uint32_t);
struct callbacks {
	size_t size;
	int (*get_module_table)(int module, fnptr ***table, unsigned *size);
};
struct version_info {
	size_t size;
	uint32_t version, reserved;
	void (*set_version)(uint32_t);
};
struct attrs {
	uint16_t version, size;
	uint32_t category;
	int32_t color_type;
	uint32_t color;
	int32_t payload_type, reserved;
	union { uint64_t u; int64_t i; double d; uint32_t u32; int32_t i32; float f; } payload;
	int32_t message_type;
	union { const char *ascii; } message;
};

static char buf[1 << 16];
static size_t len;
static int depth, ddepth;
static uint64_t ids;
static char domain_name[64];

/* mu orders the log's lines: several threads push and pop at once
   (TestPushPopSameThread), and an unlocked append lost lines. */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static void logf_(const char *fmt, ...) {
	va_list ap;
	va_start(ap, fmt);
	pthread_mutex_lock(&mu);
	int n = vsnprintf(buf + len, sizeof buf - len, fmt, ap);
	if (n > 0 && len + n + 1 < sizeof buf) {
		len += n;
		buf[len++] = '\n';
		buf[len] = 0;
	}
	pthread_mutex_unlock(&mu);
	va_end(ap);
}

static long tid(void) { return syscall(SYS_gettid); }

static void log_attrs(const char *what, const struct attrs *a) {
	char payload[64] = "none";
	switch (a->payload_type) {
	case 1: snprintf(payload, sizeof payload, "u64:%llu", (unsigned long long)a->payload.u); break;
	case 2: snprintf(payload, sizeof payload, "i64:%lld", (long long)a->payload.i); break;
	case 3: snprintf(payload, sizeof payload, "f64:%g", a->payload.d); break;
	case 4: snprintf(payload, sizeof payload, "u32:%u", a->payload.u32); break;
	case 5: snprintf(payload, sizeof payload, "i32:%d", a->payload.i32); break;
	case 6: snprintf(payload, sizeof payload, "f32:%g", a->payload.f); break;
	}
	logf_("%s v%u size%u cat%u color%d:%08x payload %s msg%d:%s", what, a->version, a->size,
	      a->category, a->color_type, a->color, payload, a->message_type, a->message.ascii);
}

static int push_a(const char *m) { logf_("push %s tid %ld", m, tid()); return depth++; }
static int push_ex(const struct attrs *a) { log_attrs("pushex", a); return depth++; }
static int pop(void) { logf_("pop tid %ld", tid()); return --depth; }
static void mark_a(const char *m) { logf_("mark %s", m); }
static void mark_ex(const struct attrs *a) { log_attrs("markex", a); }
static uint64_t start_a(const char *m) { logf_("start %s", m); return ++ids; }
static uint64_t start_ex(const struct attrs *a) { log_attrs("startex", a); return ++ids; }
static void end(uint64_t id) { logf_("end %llu", (unsigned long long)id); }
static void name_category(uint32_t id, const char *n) { logf_("category %u %s", id, n); }
static void name_thread(uint32_t id, const char *n) { logf_("thread %u %s", id, n); }
static void *domain_create(const char *n) { snprintf(domain_name, sizeof domain_name, "%s", n); logf_("domain %s", n); return domain_name; }
static void domain_destroy(void *d) { logf_("destroy %s", (char *)d); }
static int domain_push(void *d, const struct attrs *a) { logf_("in %s", (char *)d); log_attrs("dpush", a); return ddepth++; }
static int domain_pop(void *d) { logf_("dpop %s", (char *)d); return --ddepth; }
static void domain_mark(void *d, const struct attrs *a) { logf_("in %s", (char *)d); log_attrs("dmark", a); }
static uint64_t domain_start(void *d, const struct attrs *a) { logf_("in %s", (char *)d); log_attrs("dstart", a); return ++ids; }
static void domain_end(void *d, uint64_t id) { logf_("dend %s %llu", (char *)d, (unsigned long long)id); }
static void domain_category(void *d, uint32_t id, const char *n) { logf_("dcategory %s %u %s", (char *)d, id, n); }

const char *fake_log(void) { return buf; }

void fake_reset(void) { len = 0; buf[0] = 0; depth = ddepth = 0; ids = 0; }

int InitializeInjectionNvtx2(get_export_table_fn get) {
	if (getenv("FAKE_NVTX_REFUSE")) return 0;
	const struct callbacks *cb = get(1);
	const struct version_info *vi = get(3);
	if (!cb || !vi || cb->size < sizeof *cb || vi->size < sizeof *vi || get(2) || get(9)) {
		logf_("bad export tables");
		return 0;
	}
	vi->set_version(3);
	logf_("init version %u", vi->version);
	static const unsigned want[] = {0, 16, 9, 15, 7, 16, 7};
	for (int m = 1; m <= 6; m++) {
		fnptr **t = 0;
		unsigned n = 0;
		if (!cb->get_module_table(m, &t, &n) || n != want[m] || t[0] || t[n]) {
			logf_("bad table %d size %u", m, n);
			return 0;
		}
		for (unsigned i = 1; i < n; i++)
			if (!t[i] || *t[i]) {
				logf_("bad slot %d.%u", m, i);
				return 0;
			}
	}
	fnptr **t = 0;
	unsigned n = 0;
	if (cb->get_module_table(7, &t, &n) || cb->get_module_table(0, &t, &n)) {
		logf_("module 7 or 0 answered");
		return 0;
	}
	cb->get_module_table(1, &t, &n);
	*t[1] = (fnptr)mark_ex;
	*t[2] = (fnptr)mark_a;
	*t[4] = (fnptr)start_ex;
	*t[5] = (fnptr)start_a;
	*t[7] = (fnptr)end;
	*t[8] = (fnptr)push_ex;
	*t[9] = (fnptr)push_a;
	*t[11] = (fnptr)pop;
	*t[12] = (fnptr)name_category;
	*t[14] = (fnptr)name_thread;
	cb->get_module_table(5, &t, &n);
	*t[1] = (fnptr)domain_mark;
	*t[2] = (fnptr)domain_start;
	*t[3] = (fnptr)domain_end;
	*t[4] = (fnptr)domain_push;
	*t[5] = (fnptr)domain_pop;
	*t[8] = (fnptr)domain_category;
	*t[12] = (fnptr)domain_create;
	*t[14] = (fnptr)domain_destroy;
	return 1;
}
