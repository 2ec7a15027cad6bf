package main

// Resident memory of a server: the sum over every process in its process group (bench/push starts
// each server with setsid, so the group holds the JRuby launcher and the JVM, or Puma).

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

func groupRSS(pgid int) (bytes int64, procs int) {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	page := int64(os.Getpagesize())
	for _, stat := range stats {
		data, err := os.ReadFile(stat)
		if err != nil {
			continue
		}
		s := string(data)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:]) // state ppid pgrp ...
		if len(fields) < 3 || fields[2] != strconv.Itoa(pgid) {
			continue
		}
		statm, err := os.ReadFile(filepath.Join(filepath.Dir(stat), "statm"))
		if err != nil {
			continue
		}
		f := strings.Fields(string(statm)) // size resident ...
		if len(f) < 2 {
			continue
		}
		pages, _ := strconv.ParseInt(f[1], 10, 64)
		bytes += pages * page
		procs++
	}
	return bytes, procs
}
