package org.nettyrack.core.warmup;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The targets ({@code /path?query}) of the last requests a server answered that a warm-up may
 * send again: GET only (safe to repeat), answered 2xx or 3xx (an error page is no page a user
 * gets twice), as often as they came, so the pages most asked for are most of the sample. A
 * hot restart hands them to its new process, which warms up on them ({@code --warmup recent}).
 * Bounded: the oldest are overwritten. Recorded from any event loop; one write a request.
 *
 * <pre>
 * recent.answered("GET", "/products/7", 200);
 * recent.targets();   // oldest first: ["/", "/products/7", ...]
 * </pre>
 */
public final class RecentRequests {
    private final AtomicReferenceArray<String> ring;
    private final AtomicLong next = new AtomicLong();

    public RecentRequests(int size) {
        if (size < 1) {
            throw new IllegalArgumentException("a sample of recent requests holds 1 or more, got " + size);
        }
        this.ring = new AtomicReferenceArray<>(size);
    }

    public void answered(String method, String target, int status) {
        if (status >= 200 && status < 400 && "GET".equals(method) && target.startsWith("/")) {
            ring.set((int) (next.getAndIncrement() % ring.length()), target);
        }
    }

    /** The targets kept, oldest first. */
    public List<String> targets() {
        long end = next.get();
        int size = ring.length();
        List<String> targets = new ArrayList<>(size);
        for (long i = Math.max(0, end - size); i < end; i++) {
            String target = ring.get((int) (i % size));
            if (target != null) {
                targets.add(target);
            }
        }
        return targets;
    }
}
