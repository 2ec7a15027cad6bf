// Test of the report subcommand on a made-up events file with known answers.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReport(t *testing.T) {
	dir := t.TempDir()
	const startUnix = 1700000000000
	// 30 s at 100 ok requests/s with 1 ms latency, except that [15 s, 16 s) fails with resets,
	// plus one slow ok request (900 ms) at 15.005 s.
	var b strings.Builder
	fmt.Fprintf(&b, "#start_unix_ms=%d\nstart_ms,latency_us,client,outcome,served_by\n", startUnix)
	for ms := 0; ms < 30000; ms += 10 {
		if ms >= 15000 && ms < 16000 {
			fmt.Fprintf(&b, "%d,500,1,reset,\n", ms)
		} else {
			fmt.Fprintf(&b, "%d,1000,2,ok,\"pid,%d\"\n", ms, ms/15000)
		}
	}
	b.WriteString("15005,900000,3,ok,slow\n")
	events := filepath.Join(dir, "events.csv")
	marks := filepath.Join(dir, "marks.csv")
	os.WriteFile(events, []byte(b.String()), 0o644)
	os.WriteFile(marks, []byte(fmt.Sprintf("# a comment\n15000,signal\n%d,new_serving\n", startUnix+16000)), 0o644)

	var out strings.Builder
	if err := reportMain([]string{events, "-marks", marks, "-window", "5s"}, &out); err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + out.String())
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	var rep report
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Requests != 3001 || rep.PeakOkRPS != 100 || len(rep.Marks) != 2 {
		t.Fatalf("report: %+v", rep)
	}
	sig, ns := rep.Marks[0], rep.Marks[1]
	// signal: [15 s, 20 s) holds 100 resets + 400 ok + the slow one.
	if sig.Label != "signal" || sig.Requests != 501 || sig.Failures != 100 || sig.ByOutcome["reset"] != 100 ||
		sig.P99Ms != 1 || sig.MaxMs != 900 || sig.SteadyP99Ms != 1 || sig.OkRPS != 80.2 || sig.VsPeak != 0.8 ||
		sig.FailFromMs != 15000 || sig.FailToMs != 15990 {
		t.Errorf("signal row: %+v", sig)
	}
	// new_serving, given in unix ms: [16 s, 21 s) is all ok at the peak rate.
	if ns.Label != "new_serving" || ns.AtMs != 16000 || ns.Failures != 0 || ns.FailFromMs != -1 || ns.OkRPS != 100 || ns.VsPeak != 1 {
		t.Errorf("new_serving row: %+v", ns)
	}
	if !strings.Contains(out.String(), "| signal | 15.000 | 501 | 100 | reset 100 | 15.000-15.990 | 1.00 | 900.00 | 1.00 | 80.2 | 80% |") {
		t.Errorf("markdown row missing")
	}
}
