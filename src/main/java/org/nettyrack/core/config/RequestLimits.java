package org.nettyrack.core.config;

/**
 * How large a request may be: its head (request line, header block, header count), a chunked
 * body's extensions, and its body (and how much of it is kept in memory before spooling to a
 * file). Read by each door's decoder and guard before the app is called; past a limit the
 * client gets 414, 431, 400 or 413 and the app never sees the request.
 *
 * @param maxUriLength longest request line (method, target, version) before 414
 * @param maxHeaderSize largest header block before 431
 * @param maxHeaders most header fields before 431
 * @param maxChunkExtensions bytes of chunk extensions a chunked request body may carry beyond its
 *     data; one chunk header may use a quarter of it. 400 beyond
 * @param maxBodySize largest request body before 413
 * @param bodyBufferSize body bytes kept in memory; a larger body is spooled to a temp file
 * @param maxDiscardSize body bytes the servlet door reads and drops after refusing a request
 *     before its body was read (413, 414, 431, 400, 501): a connection closed with bytes unread
 *     is reset, and the client, still sending, never reads the answer. A longer rest is not read:
 *     the connection closes
 */
public record RequestLimits(int maxUriLength, int maxHeaderSize, int maxHeaders, int maxChunkExtensions,
                            long maxBodySize, int bodyBufferSize, long maxDiscardSize) {
    public static final RequestLimits DEFAULTS =
        new RequestLimits(8 * 1024, 16 * 1024, 100, 16 * 1024, 100L * 1024 * 1024, 128 * 1024, 4L * 1024 * 1024);

    public void check() {
        Check.that(maxUriLength >= 64, "max URI length must be at least 64 bytes, got " + maxUriLength);
        Check.that(maxHeaderSize >= 256, "max header size must be at least 256 bytes, got " + maxHeaderSize);
        Check.that(maxHeaders >= 1, "max headers must be 1 or more, got " + maxHeaders);
        Check.that(maxChunkExtensions >= 256,
            "max chunk extensions must be at least 256 bytes, got " + maxChunkExtensions);
        Check.that(maxBodySize >= 0, "max body size must be 0 or more, got " + maxBodySize);
        Check.that(bodyBufferSize >= 0, "body buffer size must be 0 or more, got " + bodyBufferSize);
        Check.that(maxDiscardSize >= 0, "max discard size must be 0 or more, got " + maxDiscardSize);
    }
}
