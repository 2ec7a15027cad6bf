package org.nettyrack.netty;

import io.netty.buffer.AbstractByteBuf;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Netty's own leak detector at PARANOID (every buffer tracked, access points recorded), with its
 * reports collected here instead of only logged, so a test can fail on them. Netty reports a
 * leak when the garbage collector has reclaimed an unreleased buffer and a later allocation
 * polls for it; {@link #sweep()} forces that. Only reports whose traces pass through
 * {@code marker} count: the detector is JVM-wide and other tests' leaks are not ours.
 *
 * <p>The detector of {@code ByteBuf}s is a package-private static in {@link AbstractByteBuf};
 * there is no public way to listen to it, hence the reflection.
 */
final class LeakReports implements ResourceLeakDetector.LeakListener {
    private final ConcurrentLinkedQueue<String> reports = new ConcurrentLinkedQueue<>();
    private final String marker;
    private final ResourceLeakDetector.Level previous;
    private final ResourceLeakDetector<?> detector;

    private LeakReports(String marker) {
        this.marker = marker;
        this.previous = ResourceLeakDetector.getLevel();
        this.detector = byteBufDetector();
    }

    static LeakReports install(String marker) {
        LeakReports leaks = new LeakReports(marker);
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
        leaks.detector.setLeakListener(leaks);
        return leaks;
    }

    void uninstall() {
        detector.setLeakListener(null);
        ResourceLeakDetector.setLevel(previous);
    }

    @Override
    public void onLeak(String resourceType, String records) {
        if (records.contains(marker)) {
            reports.add(resourceType + " leaked:" + records);
        }
    }

    /** The reports since the last call. */
    List<String> drain() {
        List<String> out = new ArrayList<>();
        for (String r; (r = reports.poll()) != null; ) {
            out.add(r);
        }
        return out;
    }

    /** Lets the collector find unreleased buffers and the detector report them. */
    void sweep() {
        for (int i = 0; i < 3; i++) {
            System.gc();
            ByteBuf probe = ByteBufAllocator.DEFAULT.heapBuffer(1);
            probe.release();
        }
    }

    private static ResourceLeakDetector<?> byteBufDetector() {
        try {
            Field field = AbstractByteBuf.class.getDeclaredField("leakDetector");
            field.setAccessible(true);
            return (ResourceLeakDetector<?>) field.get(null);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("cannot reach Netty's ByteBuf leak detector (AbstractByteBuf.leakDetector); "
                + "Netty's internals changed: update LeakReports", e);
        }
    }
}
