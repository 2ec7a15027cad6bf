package org.nettyrack.netty.http1;

import io.netty.handler.codec.http.HttpResponseStatus;

/**
 * The server's own answer to a request it will not serve (malformed, over a limit, too slow),
 * passed from {@link RequestGuard} or the {@code BodyCollector} on to {@code RackDispatcher},
 * which owns the order of answers on
 * a connection: the refusal leaves after the answers to the requests pipelined before it, then
 * the connection closes. {@code head} when the refused request was a HEAD (no body then).
 */
public record Refusal(HttpResponseStatus status, boolean head) {
}
