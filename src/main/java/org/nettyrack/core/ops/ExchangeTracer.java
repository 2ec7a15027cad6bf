package org.nettyrack.core.ops;

import org.nettyrack.core.ErrorLog;
import org.nettyrack.core.RackRequest;

/**
 * Told once of each exchange a door finished (answered, upgraded or hijacked), on the thread
 * that saw its end, after its last byte was written: for a trace span per request. The door
 * keeps the one {@link ExchangeTracers#choose} gave it at startup; {@link #NONE} when traces
 * are off or no tracing library is on the class path. An implementation must not throw, and
 * must return quickly (the Netty door calls it on an event loop).
 */
@FunctionalInterface
public interface ExchangeTracer {
    /** Traces nothing. */
    ExchangeTracer NONE = (request, status, bytes, endNanos) -> { };

    /**
     * The exchange of request ended: status as sent (0 for a full hijack), bytes of body
     * written, endNanos the {@link System#nanoTime} of its last byte (the clock of
     * {@link org.nettyrack.core.RequestTimes#arrivedNanos}).
     */
    void finished(RackRequest request, int status, long bytes, long endNanos);

    /**
     * What a tracing library's adapter implements, with a public no-argument constructor: it is
     * made by name only once the library was found on the class path ({@link ExchangeTracers}).
     */
    interface Source {
        /** The tracer, or {@link #NONE} when the library is present but not configured. */
        ExchangeTracer open(ErrorLog errors);
    }
}
