package org.nettyrack.core.reload;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.nettyrack.core.RackHandler;
import org.nettyrack.core.RackRequest;
import org.nettyrack.core.ResponseSink;

/**
 * One version of the application behind an {@link AppSwitch}: its handler, the requests it is
 * running now (so that a replaced version is released only once they are done), and, during
 * a canary, its answers, 5xx answers and how long an answer takes it lately (a moving average).
 */
final class Generation {
    final RackHandler handler;
    final int number;
    private final LongAdder running = new LongAdder();
    private final LongAdder answers = new LongAdder();
    private final LongAdder errors = new LongAdder();
    /** The moving average of an answer's time in µs, as double bits; 0 before the first. */
    private final AtomicLong recentMicros = new AtomicLong();
    private final LongSupplier clockNanos;

    Generation(RackHandler handler, int number, LongSupplier clockNanos) {
        this.handler = handler;
        this.number = number;
        this.clockNanos = clockNanos;
    }

    void handle(RackRequest request, ResponseSink sink) {
        enter();
        try {
            handler.handle(request, sink);
        } finally {
            running.decrement();
        }
    }

    /** Counts a request in before it is known to stay here; {@link #leave} or {@link #handleEntered} follows. */
    void enter() {
        running.increment();
    }

    void leave() {
        running.decrement();
    }

    /**
     * Runs a request counted in by {@link #enter} and counts its answer; a handler that throws
     * counts as a 5xx.
     */
    void handleEntered(RackRequest request, ResponseSink sink) {
        ObservedSink observed = new ObservedSink(sink);
        int status = 500;
        long start = clockNanos.getAsLong();
        try {
            handler.handle(request, observed);
            status = observed.status();
        } finally {
            running.decrement();
            answered((clockNanos.getAsLong() - start) / 1_000.0);
            answers.increment();
            if (status >= 500) {
                errors.increment();
            }
        }
    }

    long running() {
        return running.sum();
    }

    private void answered(double micros) {
        long bits;
        double next;
        do {
            bits = recentMicros.get();
            double average = Double.longBitsToDouble(bits);
            next = average == 0 ? micros : average + Canary.RECENT_WEIGHT * (micros - average);
        } while (!recentMicros.compareAndSet(bits, Double.doubleToLongBits(next)));
    }

    Canary.Tally tally() {
        return new Canary.Tally(answers.sum(), errors.sum(), Double.longBitsToDouble(recentMicros.get()));
    }
}
