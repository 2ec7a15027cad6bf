package org.nettyrack.core;

/**
 * When one exchange reached each of its stages, for the metrics, the access log and traces.
 * The transport makes it as the request's head arrives (the monotonic clock and the wall
 * clock), marks the hand-off to the worker pool ({@link #dispatched}); {@link
 * FailureResponse#serve}, on the worker, marks the application's start and return; the end
 * is the last byte's write, given when the exchange is reported. A proxy's {@code
 * X-Request-Start}, when the request carries one, is kept as {@link #upstreamMicros}. A stage
 * never reached (a public file, a 503 from a full queue) gives a span of 0. The application may
 * name the route it matched ({@link #route}), for a trace's span name.
 */
public final class RequestTimes {
    private final long arrivedNanos;
    private final long arrivedMicros;
    private final long upstreamMicros;
    // Plain fields: each stage is written before a hand-off the reader is behind (the worker
    // pool's queue, the response's completion on the transport's thread). The return alone
    // races with the last byte's report (a small response is out before the worker is back).
    private long dispatchedNanos;
    private long startedNanos;
    private volatile long returnedNanos;
    private volatile String route;

    /** Arrived now; upstreamMicros: the proxy's start in µs since the epoch ({@link RequestStart}), or 0. */
    public RequestTimes(long arrivedNanos, long upstreamMicros) {
        this.arrivedNanos = arrivedNanos;
        this.arrivedMicros = System.currentTimeMillis() * 1_000;
        this.upstreamMicros = upstreamMicros;
    }

    /** For a request without a proxy's start: arrived now. */
    public static RequestTimes now() {
        return new RequestTimes(System.nanoTime(), 0);
    }

    public long arrivedNanos() {
        return arrivedNanos;
    }

    /** The head's arrival in microseconds since the epoch (what {@code X-Request-Start} says when the server sets it). */
    public long arrivedMicros() {
        return arrivedMicros;
    }

    /** The proxy's start from {@code X-Request-Start}, µs since the epoch; 0 when the request had none. */
    public long upstreamMicros() {
        return upstreamMicros;
    }

    /** The request, body and all, was handed to the worker pool. */
    public void dispatched() {
        dispatchedNanos = System.nanoTime();
    }

    /** A worker began the application. */
    public void started() {
        startedNanos = System.nanoTime();
    }

    /** The application returned (its body written, or handed to the transport). */
    public void returned() {
        returnedNanos = System.nanoTime();
    }

    /**
     * The route the application matched, as a template ({@code /users/:id}), from {@code
     * env['nettyrack.route']} when the application returned; null when it named none.
     */
    public void route(String template) {
        route = template;
    }

    /** The application's route template, or null. */
    public String route() {
        return route;
    }

    /** Waiting for a worker: from the hand-off to the worker's start. */
    public long queueNanos() {
        long dispatched = dispatchedNanos;
        long started = startedNanos;
        return dispatched == 0 || started == 0 ? 0 : Math.max(0, started - dispatched);
    }

    /** Whether a worker began the application for this request. */
    public boolean reachedApp() {
        return startedNanos != 0;
    }

    /**
     * In the application: from the worker's start to its return, or to endNanos when the last
     * byte was written before the worker got back from the call (a small response goes out as
     * the application returns it).
     */
    public long appNanos(long endNanos) {
        long started = startedNanos;
        if (started == 0) {
            return 0;
        }
        long returned = returnedNanos;
        return Math.max(0, (returned == 0 || returned > endNanos ? endNanos : returned) - started);
    }

    /** On the wire after the application returned, until endNanos (the last byte written); 0 when it had not returned. */
    public long wireNanos(long endNanos) {
        long returned = returnedNanos;
        return returned == 0 ? 0 : Math.max(0, endNanos - returned);
    }

    /** From the head's arrival to endNanos. */
    public long totalNanos(long endNanos) {
        return Math.max(0, endNanos - arrivedNanos);
    }

    /** From the proxy's start to the head's arrival, in µs; -1 without one (or a start in the future: clocks apart). */
    public long upstreamQueueMicros() {
        if (upstreamMicros == 0) {
            return -1;
        }
        long micros = arrivedMicros - upstreamMicros;
        return micros < 0 ? -1 : micros;
    }
}
