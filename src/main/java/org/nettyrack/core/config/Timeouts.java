package org.nettyrack.core.config;

/**
 * How long a connection may take at each step: sending a request head, sending its body (with
 * a minimum rate that earns a slow upload more time), idling between keep-alive requests,
 * reading a response, and how long in-flight requests get on a graceful stop. Read by the
 * Netty door's timeout handlers, its {@link org.nettyrack.core.BodyDeadline} and its stop.
 *
 * @param headerTimeoutMillis time a new connection has to send a complete request head
 * @param bodyTimeoutMillis time a request body gets after its head, before 408
 * @param bodyMinRate body bytes per second that earn a slow upload more time; 0: the timeout is
 *     for the whole body
 * @param keepAliveTimeoutMillis time an idle keep-alive connection stays open between requests
 * @param writeTimeoutMillis time a response write may wait for a client that does not read
 * @param shutdownTimeoutMillis time in-flight requests get to finish on a graceful stop
 */
public record Timeouts(long headerTimeoutMillis, long bodyTimeoutMillis, long bodyMinRate, long keepAliveTimeoutMillis,
                       long writeTimeoutMillis, long shutdownTimeoutMillis) {
    public static final Timeouts DEFAULTS = new Timeouts(30_000, 30_000, 1024, 20_000, 60_000, 30_000);

    public void check() {
        Check.that(headerTimeoutMillis > 0, "header timeout must be positive");
        Check.that(bodyTimeoutMillis > 0, "body timeout must be positive");
        Check.that(bodyMinRate >= 0, "body minimum rate must be 0 or more, got " + bodyMinRate);
        Check.that(keepAliveTimeoutMillis > 0, "keep-alive timeout must be positive");
        Check.that(writeTimeoutMillis > 0, "write timeout must be positive");
        Check.that(shutdownTimeoutMillis >= 0, "shutdown timeout must be 0 or more");
    }
}
