package org.nettyrack.netty.http1;

import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import java.util.List;

/**
 * Bounds the bytes a chunked request body may spend on framing rather than data (chunk-size
 * lines, extensions, CRLFs). Netty validates chunk extensions and drops them, but a client can
 * still send endless extension bytes around tiny chunks and hold a connection for little data
 * (Puma's CVE-2024-21647). Like Puma, the body's framing is paid for by its data:
 * <ul>
 * <li>framing minus data, summed over the body, may not pass {@code maxExcess} (each piece of
 * data also earns {@link #ALLOWANCE} bytes, so even one-byte chunks with no extensions never
 * run out);</li>
 * <li>the framing between two pieces of data (about one chunk header) may not pass a quarter of
 * {@code maxExcess}.</li>
 * </ul>
 * The decoder reports each decode step: the wire bytes it consumed and what it produced. The
 * step that ends the body (last chunk and trailers) is bounded by the decoder's own line and
 * header limits, so it is not counted.
 */
final class ChunkExtensionBudget {
    /** Framing a piece of data may bring for free: a chunk-size line's digits and two CRLFs. */
    static final int ALLOWANCE = 12;

    private final long maxExcess;
    private final long maxHeader;
    private boolean inChunkedBody;
    private long excess;
    private long sinceData;

    ChunkExtensionBudget(int maxExcess) {
        this.maxExcess = maxExcess;
        this.maxHeader = Math.max(ALLOWANCE, maxExcess / 4);
    }

    /**
     * Accounts one decode step that consumed {@code consumed} bytes and added {@code out}
     * from index {@code from}; false when the body is over budget.
     */
    boolean account(int consumed, List<Object> out, int from) {
        long data = 0;
        int pieces = 0;
        boolean started = false;
        boolean ended = false;
        for (int i = from; i < out.size(); i++) {
            Object msg = out.get(i);
            if (msg instanceof HttpRequest) {
                started = HttpUtil.isTransferEncodingChunked((HttpRequest) msg);
            }
            if (msg instanceof HttpContent) {
                int n = ((HttpContent) msg).content().readableBytes();
                if (n > 0) {
                    data += n;
                    pieces++;
                }
                ended |= msg instanceof LastHttpContent;
            }
        }
        if (started) {
            inChunkedBody = true; // this step read the head: the body's framing starts after it
            excess = 0;
            sinceData = 0;
            return true;
        }
        if (!inChunkedBody) {
            return true;
        }
        if (ended) {
            inChunkedBody = false;
            return true;
        }
        long framing = consumed - data;
        excess += framing - data - (long) pieces * ALLOWANCE;
        sinceData = (pieces > 0 ? 0 : sinceData) + framing;
        return excess <= maxExcess && sinceData <= maxHeader + ALLOWANCE;
    }
}
