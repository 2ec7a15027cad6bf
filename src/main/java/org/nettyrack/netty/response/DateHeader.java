package org.nettyrack.netty.response;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.util.AsciiString;
import java.nio.charset.StandardCharsets;
import org.nettyrack.core.HttpDate;

/**
 * Gives every final response that leaves without a {@code Date} the server's ({@link HttpDate}:
 * RFC 9110 6.6.1). It sits on the application's side of the HTTP/1.1 encoder and of the control
 * endpoint's codec (each HTTP/2 stream's codec calls {@link #stamp} itself), so the
 * application's responses, the server's own answers (400, 408, 413, 503...) and push heads
 * all pass it; a response that carries the application's own {@code Date} keeps it.
 * Informational responses (100, 101, 103) go out as they are. Answers written as bytes past the encoder (a small file's
 * prepared answer, a 408 before any request, the 400 for cleartext on a TLS port) put
 * {@link #line()} or {@link #current()}'s bytes in themselves.
 *
 * <p>The value is formatted once a second by the core; here it becomes an {@link AsciiString}
 * (and the bytes of a header line) once per value, shared by every connection.
 */
@ChannelHandler.Sharable
public final class DateHeader extends ChannelOutboundHandlerAdapter {
    public static final DateHeader INSTANCE = new DateHeader(HttpDate.SYSTEM);

    /**
     * One second's value in the forms the door writes; {@code endOfHead} is the header line and
     * the blank line that ends a head ({@code date: ...\r\n\r\n}), read-only by contract.
     */
    public record Stamp(String value, AsciiString ascii, byte[] endOfHead) {
    }

    private final HttpDate clock;
    private volatile Stamp stamp = new Stamp(null, null, null);

    public DateHeader(HttpDate clock) {
        this.clock = clock;
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof HttpResponse response) {
            stamp(response);
        }
        ctx.write(msg, promise);
    }

    /** Gives the response this second's {@code date} field, unless its status or the application says otherwise. */
    public void stamp(HttpResponse response) {
        if (HttpDate.applies(response.status().code())) {
            HttpHeaders headers = response.headers();
            if (!headers.contains(HttpHeaderNames.DATE)) {
                headers.set(HttpHeaderNames.DATE, current().ascii());
            }
        }
    }

    /** The header line as text, {@code date: Sun, 06 Nov 1994 08:49:37 GMT\r\n}, for answers spelled out whole. */
    public String line() {
        return "date: " + current().value() + "\r\n";
    }

    /** This second's value: compare {@link Stamp#value()} by identity to tell whether the second changed. */
    public Stamp current() {
        String value = clock.current();
        Stamp now = stamp;
        if (now.value() != value) { // the core hands out one String per second
            now = new Stamp(value, new AsciiString(value), ("date: " + value + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            stamp = now;
        }
        return now;
    }
}
