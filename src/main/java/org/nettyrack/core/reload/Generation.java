package org.nettyrack.core.reload;

import java.util.concurrent.atomic.LongAdder;
import org.nettyrack.core.RackHandler;
import org.nettyrack.core.RackRequest;
import org.nettyrack.core.ResponseSink;

/**
 * One version of the application behind an {@link AppSwitch}: its handler, the requests it is
 * running now (so that a replaced version is released only once they are done), and, during
 * a canary, its answers and 5xx answers.
 */
final class Generation {
    final RackHandler handler;
    final int number;
    private final LongAdder running = new LongAdder();
    private final LongAdder answers = new LongAdder();
    private final LongAdder errors = new LongAdder();

    Generation(RackHandler handler, int number) {
        this.handler = handler;
        this.number = number;
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
        try {
            handler.handle(request, observed);
            status = observed.status();
        } finally {
            running.decrement();
            answers.increment();
            if (status >= 500) {
                errors.increment();
            }
        }
    }

    long running() {
        return running.sum();
    }

    Canary.Tally tally() {
        return new Canary.Tally(answers.sum(), errors.sum());
    }
}
