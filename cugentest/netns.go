package cugentest

import (
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

// netnsEnv marks a test process started in a network namespace of its
// own; its value is the test's name.
const netnsEnv = "CUGEN_TEST_NETNS"

// InFreshNetwork runs t in a network namespace of its own, where only
// the loopback interface exists, so that its processes can reach no
// other address: where `unshare -rn` works (Linux with unprivileged user
// namespaces, and ip(8) to bring lo up), it re-executes the test binary
// for t alone inside one, relays its output, fails t if it failed and
// returns false (return then); in that process, it returns true. Where
// unshare does not work, it logs why and returns true: t runs here, on
// this machine's loopback.
func InFreshNetwork(t *testing.T) bool {
	t.Helper()
	if os.Getenv(netnsEnv) == t.Name() {
		t.Logf("in a fresh network namespace")
		return true
	}
	if why := noUnshare(); why != "" {
		t.Logf("not in a network namespace of its own (%s): loopback addresses only", why)
		return true
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatalf("cannot re-execute the test binary: %v", err)
	}
	cmd := exec.Command("unshare", "-rn", "sh", "-c", `ip link set lo up && exec "$0" "$@"`,
		exe, "-test.run=^"+t.Name()+"$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), netnsEnv+"="+t.Name())
	out, err := cmd.CombinedOutput()
	text := string(out)
	for _, l := range strings.Split(strings.TrimSpace(text), "\n") {
		t.Log("netns: " + l)
	}
	switch {
	case err != nil && strings.Contains(text, "--- FAIL: "+t.Name()):
		t.Fatalf("the test failed in its network namespace (its log above)")
	case err != nil:
		t.Fatalf("the process in the network namespace failed (%v)", err)
	case strings.Contains(text, "--- SKIP: "+t.Name()):
		t.Skip(skipReason(text))
	case !strings.Contains(text, "--- PASS: "+t.Name()):
		t.Fatalf("the process in the network namespace did not run %s", t.Name())
	}
	return false
}

// noUnshare says why no network namespace can be made here, "" if one can.
func noUnshare() string {
	if runtime.GOOS != "linux" {
		return "not Linux"
	}
	if _, err := exec.LookPath("unshare"); err != nil {
		return "no unshare command"
	}
	if _, err := exec.LookPath("ip"); err != nil {
		return "no ip command to bring lo up"
	}
	if out, err := exec.Command("unshare", "-rn", "ip", "link", "set", "lo", "up").CombinedOutput(); err != nil {
		return "unshare -rn: " + strings.TrimSpace(string(out)) + " (" + err.Error() + ")"
	}
	return ""
}
