package org.nettyrack.core.config;

/**
 * Whether cleartext ports speak HTTP/2 too, and the limits of an HTTP/2 connection. Read by the
 * Netty door when a connection turns out to be h2 or h2c (ALPN, prior knowledge, or
 * {@code Upgrade: h2c}) and it builds the HTTP/2 codec.
 *
 * @param enabled whether cleartext ports also speak h2c (prior knowledge and {@code Upgrade: h2c});
 *     on by default
 * @param maxConcurrentStreams streams one connection may have open at once (SETTINGS_MAX_CONCURRENT_STREAMS)
 * @param initialWindow bytes of request body a client may send on one stream before the server reads them
 * @param maxResets RST_STREAM frames a connection may see per {@code resetWindowMillis}, counted
 *     apart: the client's (rapid reset, CVE-2023-44487) and those the server would send in answer
 *     to the client's errors (MadeYouReset, CVE-2025-8671); past either, GOAWAY
 * @param resetWindowMillis the window {@code maxResets} counts in: whole seconds, as Netty counts them
 */
public record Http2Settings(boolean enabled, int maxConcurrentStreams, int initialWindow, int maxResets,
                            long resetWindowMillis) {
    public static final Http2Settings DEFAULTS = new Http2Settings(true, 100, 65_535, 200, 30_000);

    public void check() {
        Check.that(maxConcurrentStreams >= 1, "max concurrent streams must be 1 or more, got " + maxConcurrentStreams);
        Check.that(initialWindow >= 1024, "HTTP/2 initial window must be at least 1024 bytes, got " + initialWindow);
        Check.that(maxResets >= 1 && maxResets <= 1_000_000, "HTTP/2 max resets must be 1..1000000, got " + maxResets);
        Check.that(resetWindowMillis >= 1_000 && resetWindowMillis <= 3_600_000 && resetWindowMillis % 1_000 == 0,
            "HTTP/2 reset window must be whole seconds from 1 to 3600, got " + resetWindowMillis / 1000.0 + " s");
    }
}
