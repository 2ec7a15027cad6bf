// Report: reads an http events CSV and a marks file (lines "ms,label"; ms since the run start, or
// absolute unix milliseconds, converted with the events file's "#start_unix_ms=" line) and prints,
// per mark, for the window W after it (events by their start time): requests, failures by outcome
// and when the first and last of them started, p99/max latency of all requests, the steady-state p99 of the W before the mark, and ok responses
// per second against the run's peak (best rolling W-long average of consecutive 1 s buckets).
// Output: a Markdown table, then the same as one JSON line.
package main

import (
	"bufio"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// evRec is one request from the events file, kept small: runs have millions of them.
type evRec struct {
	ms      int32 // start, since the run started
	latUs   int32
	outcome uint16 // index into the outcome names; 0 is "ok"
}

type mark struct {
	ms    int64
	label string
}

type markRow struct {
	Label       string         `json:"label"`
	AtMs        int64          `json:"ms"`
	Requests    int            `json:"requests"`
	Failures    int            `json:"failures"`
	ByOutcome   map[string]int `json:"failures_by_outcome"`
	FailFromMs  int64          `json:"first_failure_ms"` // start of the first and last failed request
	FailToMs    int64          `json:"last_failure_ms"`  // in the window; -1 when none failed
	P99Ms       float64        `json:"p99_ms"`
	MaxMs       float64        `json:"max_ms"`
	SteadyP99Ms float64        `json:"steady_p99_ms"`
	OkRPS       float64        `json:"ok_rps"`
	VsPeak      float64        `json:"ok_rps_vs_peak"` // OkRPS / PeakOkRPS
}

type report struct {
	WindowS   float64   `json:"window_s"`
	Requests  int       `json:"requests"`
	PeakOkRPS float64   `json:"peak_ok_rps"`
	PeakAtMs  int64     `json:"peak_window_start_ms"`
	Marks     []markRow `json:"marks"`
}

func reportMain(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	marksFile := fs.String("marks", "", "marks file, lines ms,label")
	window := fs.Duration("window", 10*time.Second, "window after (and steady state before) each mark")
	var file string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		file, args = args[0], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if file == "" && fs.NArg() == 1 {
		file = fs.Arg(0)
	}
	if file == "" || *marksFile == "" || *window < time.Second {
		return errors.New("report: usage: client report events.csv -marks marks.csv [-window 10s] (window >= 1s)")
	}
	evs, names, startUnix, err := loadEvents(file)
	if err != nil {
		return err
	}
	marks, err := loadMarks(*marksFile, startUnix)
	if err != nil {
		return err
	}
	printReport(w, analyze(evs, names, marks, window.Milliseconds()))
	return nil
}

// loadEvents reads an events CSV; it returns the events sorted by start, the outcome names and the
// run's start in unix ms (0 if the file does not say).
func loadEvents(path string) ([]evRec, []string, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, 0, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<20)
	var startUnix int64
	if first, _ := br.Peek(len("#start_unix_ms=") + 20); strings.HasPrefix(string(first), "#start_unix_ms=") {
		line, _ := br.ReadString('\n')
		startUnix, _ = strconv.ParseInt(strings.TrimSpace(strings.TrimPrefix(line, "#start_unix_ms=")), 10, 64)
	}
	r := csv.NewReader(br)
	r.Comment, r.ReuseRecord, r.FieldsPerRecord = '#', true, 5
	names, index := []string{"ok"}, map[string]uint16{"ok": 0}
	var evs []evRec
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, 0, fmt.Errorf("%s: %w", path, err)
		}
		if rec[0] == "start_ms" {
			continue // header
		}
		start, err1 := strconv.ParseInt(rec[0], 10, 32)
		lat, err2 := strconv.ParseInt(rec[1], 10, 32)
		if err1 != nil || err2 != nil {
			return nil, nil, 0, fmt.Errorf("%s: bad line %q", path, strings.Join(rec, ","))
		}
		o, ok := index[rec[3]]
		if !ok {
			o = uint16(len(names))
			names = append(names, rec[3])
			index[rec[3]] = o
		}
		evs = append(evs, evRec{int32(start), int32(lat), o})
	}
	sort.SliceStable(evs, func(i, j int) bool { return evs[i].ms < evs[j].ms })
	return evs, names, startUnix, nil
}

// loadMarks reads "ms,label" lines ('#' comments and an "ms,label" header allowed); ms above 1e12 are
// unix milliseconds and are made relative to startUnix.
func loadMarks(path string, startUnix int64) ([]mark, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comment, r.FieldsPerRecord, r.TrimLeadingSpace = '#', -1, true
	var marks []mark
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return marks, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if len(rec) < 2 || rec[0] == "ms" {
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(rec[0]), 64)
		if err != nil {
			return nil, fmt.Errorf("%s: bad mark time %q", path, rec[0])
		}
		at := int64(math.Round(v))
		if at > 1e12 {
			if startUnix == 0 {
				return nil, fmt.Errorf("%s: absolute mark %d but the events file has no #start_unix_ms", path, at)
			}
			at -= startUnix
		}
		marks = append(marks, mark{at, strings.TrimSpace(rec[1])})
	}
}

// analyze computes the report; evs must be sorted by start and window is in ms.
func analyze(evs []evRec, names []string, marks []mark, window int64) report {
	rep := report{WindowS: float64(window) / 1000, Requests: len(evs)}
	// Peak: ok responses in 1 s buckets, best rolling average over window/1s consecutive buckets.
	var buckets []int
	for _, e := range evs {
		if e.outcome == 0 {
			b := int(e.ms / 1000)
			for len(buckets) <= b {
				buckets = append(buckets, 0)
			}
			buckets[b]++
		}
	}
	k := max(1, int(window/1000))
	if len(buckets) < k { // a run shorter than the window: average over all of it
		k = max(1, len(buckets))
	}
	best, bestAt := 0, 0
	for b := 0; b+k <= len(buckets); b++ {
		sum := 0
		for _, n := range buckets[b : b+k] {
			sum += n
		}
		if sum > best {
			best, bestAt = sum, b
		}
	}
	rep.PeakOkRPS = round2(float64(best) / float64(k))
	rep.PeakAtMs = int64(bestAt) * 1000

	span := func(from, to int64) []evRec { // events starting in [from, to)
		lo := sort.Search(len(evs), func(i int) bool { return int64(evs[i].ms) >= from })
		hi := sort.Search(len(evs), func(i int) bool { return int64(evs[i].ms) >= to })
		return evs[lo:hi]
	}
	sortedLat := func(es []evRec) []int64 {
		lat := make([]int64, len(es))
		for i, e := range es {
			lat[i] = int64(e.latUs)
		}
		slices.Sort(lat)
		return lat
	}
	for _, m := range marks {
		after := span(m.ms, m.ms+window)
		row := markRow{Label: m.label, AtMs: m.ms, Requests: len(after), ByOutcome: map[string]int{}, FailFromMs: -1, FailToMs: -1}
		ok := 0
		for _, e := range after {
			if e.outcome == 0 {
				ok++
				continue
			}
			if row.Failures == 0 {
				row.FailFromMs = int64(e.ms)
			}
			row.Failures++
			row.FailToMs = int64(e.ms)
			row.ByOutcome[names[e.outcome]]++
		}
		lat := sortedLat(after)
		row.P99Ms = ms(pct(lat, 99))
		if len(lat) > 0 {
			row.MaxMs = ms(lat[len(lat)-1])
		}
		row.SteadyP99Ms = ms(pct(sortedLat(span(m.ms-window, m.ms)), 99))
		row.OkRPS = round2(float64(ok) / (float64(window) / 1000))
		if rep.PeakOkRPS > 0 {
			row.VsPeak = round2(row.OkRPS / rep.PeakOkRPS)
		}
		rep.Marks = append(rep.Marks, row)
	}
	return rep
}

func printReport(w io.Writer, rep report) {
	fmt.Fprintf(w, "%d requests; window %.0f s; peak ok req/s %.1f (the %.0f s from t=%.0f s)\n\n",
		rep.Requests, rep.WindowS, rep.PeakOkRPS, rep.WindowS, float64(rep.PeakAtMs)/1000)
	fmt.Fprintln(w, "| mark | at (s) | requests | failures | failures by outcome | failing from-to (s) | p99 (ms) | max (ms) | steady p99 (ms) | ok req/s | % of peak |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---|---|---:|---:|---:|---:|---:|")
	for _, r := range rep.Marks {
		by, span := strings.TrimSpace(sortedCounts(r.ByOutcome)), "-"
		if r.Failures > 0 {
			span = fmt.Sprintf("%.3f-%.3f", float64(r.FailFromMs)/1000, float64(r.FailToMs)/1000)
		}
		fmt.Fprintf(w, "| %s | %.3f | %d | %d | %s | %s | %.2f | %.2f | %.2f | %.1f | %.0f%% |\n",
			r.Label, float64(r.AtMs)/1000, r.Requests, r.Failures, by, span, r.P99Ms, r.MaxMs, r.SteadyP99Ms, r.OkRPS, r.VsPeak*100)
	}
	fmt.Fprintln(w)
	writeJSON(w, rep)
}
