// Command client measures what users notice while a server hot-restarts.
//
//	client http   -url http://127.0.0.1:PORT/path -c 100 -d 180s -timeout 2s -out events.csv [-unix SOCK] [-insecure]
//	client report events.csv -marks marks.csv [-window 10s]
//	client ws     -url ws://127.0.0.1:PORT/path -n 1000 -d 180s -out ws.csv [-ramp 1s] [-unix SOCK] [-insecure]
//
// This file holds the subcommand dispatch and the helpers shared by the modes
// (dialing, percentiles, JSON output). See README.md for the file formats.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net"
	"os"
	"time"
)

const usageText = `usage:
  client http   -url URL -c 100 -d 180s -timeout 2s -out events.csv [-unix SOCK] [-insecure]
  client report events.csv -marks marks.csv [-window 10s]
  client ws     -url ws://HOST:PORT/path -n 1000 -d 180s -out ws.csv [-ramp 1s] [-unix SOCK] [-insecure]
`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usageText)
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "http":
		err = httpMain(os.Args[2:])
	case "ws":
		err = wsMain(os.Args[2:])
	case "report":
		err = reportMain(os.Args[2:], os.Stdout)
	default:
		fmt.Fprint(os.Stderr, usageText)
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "client:", err)
		os.Exit(1)
	}
}

// dialFunc returns a DialContext that dials TCP normally, or always the unix socket unixPath
// when it is set (the URL then only supplies the Host header and the path).
func dialFunc(unixPath string, timeout time.Duration) func(ctx context.Context, network, addr string) (net.Conn, error) {
	d := &net.Dialer{Timeout: timeout}
	if unixPath == "" {
		return d.DialContext
	}
	return func(ctx context.Context, _, _ string) (net.Conn, error) {
		return d.DialContext(ctx, "unix", unixPath)
	}
}

// pct returns the p-th percentile (nearest rank) of ascending values, 0 when there are none.
func pct(sorted []int64, p float64) int64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(math.Ceil(p/100*float64(len(sorted)))) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// ms turns microseconds into milliseconds rounded to 0.01 ms, for printing.
func ms(us int64) float64 { return math.Round(float64(us)/10) / 100 }

// round2 rounds to two decimals, for JSON output.
func round2(f float64) float64 { return math.Round(f*100) / 100 }

// writeJSON prints v as one JSON line.
func writeJSON(w io.Writer, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only plain maps, slices and numbers are marshalled
	}
	fmt.Fprintf(w, "%s\n", b)
}
