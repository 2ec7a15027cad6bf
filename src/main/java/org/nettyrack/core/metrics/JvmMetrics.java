package org.nettyrack.core.metrics;

import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryUsage;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The JVM's and the process's own figures, under the names the Prometheus Java client and
 * most JVM dashboards use: heap and non-heap, GC time and count per collector, JIT time,
 * threads, CPU time, resident memory (from {@code /proc/self/statm}), open and most file
 * descriptors, start time. What the platform does not tell (no {@code /proc}, a JVM without
 * JIT timing) is left out rather than written as 0.
 */
public final class JvmMetrics {
    private static final Path STATM = Path.of("/proc/self/statm");
    private static final long PAGE_SIZE = 4096;

    private JvmMetrics() {
    }

    public static void write(PrometheusText out) {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        MemoryUsage heap = memory.getHeapMemoryUsage();
        out.single("jvm_memory_heap_used_bytes", "gauge", "Heap bytes in use.", heap.getUsed());
        out.single("jvm_memory_heap_committed_bytes", "gauge", "Heap bytes the JVM holds from the system.", heap.getCommitted());
        if (heap.getMax() >= 0) {
            out.single("jvm_memory_heap_max_bytes", "gauge", "The most heap the JVM will grow to.", heap.getMax());
        }
        out.single("jvm_memory_nonheap_used_bytes", "gauge", "Non-heap bytes in use (metaspace, code cache).",
            memory.getNonHeapMemoryUsage().getUsed());

        out.family("jvm_gc_collection_seconds_total", "counter", "Time spent in garbage collection, per collector.");
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            out.sample("jvm_gc_collection_seconds_total", Math.max(0, gc.getCollectionTime()) / 1e3, "gc", gc.getName());
        }
        out.family("jvm_gc_collections_total", "counter", "Garbage collections, per collector.");
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            out.sample("jvm_gc_collections_total", Math.max(0, gc.getCollectionCount()), "gc", gc.getName());
        }

        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        if (jit != null && jit.isCompilationTimeMonitoringSupported()) {
            out.single("jvm_jit_compilation_seconds_total", "counter", "Time the JIT compilers spent compiling.",
                jit.getTotalCompilationTime() / 1e3);
        }

        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        out.single("jvm_threads_live", "gauge", "Live threads.", threads.getThreadCount());
        out.single("jvm_threads_daemon", "gauge", "Live daemon threads.", threads.getDaemonThreadCount());
        out.single("jvm_threads_peak", "gauge", "The most live threads since the start.", threads.getPeakThreadCount());

        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun && sun.getProcessCpuTime() >= 0) {
            out.single("process_cpu_seconds_total", "counter", "CPU time of the process, user and system.",
                sun.getProcessCpuTime() / 1e9);
        }
        long rss = residentBytes();
        if (rss >= 0) {
            out.single("process_resident_memory_bytes", "gauge", "Resident memory of the process.", rss);
        }
        if (os instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
            out.single("process_open_fds", "gauge", "Open file descriptors (sockets included).", unix.getOpenFileDescriptorCount());
            out.single("process_max_fds", "gauge", "The most file descriptors the process may open.", unix.getMaxFileDescriptorCount());
        }
        out.single("process_start_time_seconds", "gauge", "When the process started, in seconds since the epoch.",
            ManagementFactory.getRuntimeMXBean().getStartTime() / 1e3);
    }

    /** Resident pages times the page size, or -1 without {@code /proc}. */
    private static long residentBytes() {
        try {
            String[] fields = Files.readString(STATM).trim().split("\\s+");
            return Long.parseLong(fields[1]) * PAGE_SIZE;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
