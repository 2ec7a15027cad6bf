package org.nettyrack.core;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Linux's {@code /proc} view of this process's threads, for the code that reads it (the nice
 * values in {@link ProcessNice}, the JIT's CPU in the warm-up's {@code JitCpu}): where each
 * thread's files are, how to read them, and the fields of a {@code stat} line.
 */
public final class ProcStat {
    /** A directory per thread of this process, named by its kernel id, holding its {@code comm} and {@code stat}. */
    public static final Path TASKS = Path.of("/proc/self/task");

    private ProcStat() {
    }

    /**
     * The fields of a stat line after the thread's name, which may hold spaces and parentheses:
     * [0] is the state, the line's 3rd field, so the line's field n is [n - 3].
     */
    public static String[] fields(String stat) {
        return stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
    }

    /** A /proc file's text. */
    public static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.US_ASCII);
    }
}
