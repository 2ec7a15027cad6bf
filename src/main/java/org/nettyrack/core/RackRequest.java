package org.nettyrack.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A complete request as the application sees it: the head as sent, the connection's
 * addresses, where the application is mounted, and a body already read in full (see
 * {@link RequestBody}). Transports adapt their own request type to this (the Netty door its
 * decoded head, a servlet door its {@code HttpServletRequest}); nothing here knows about
 * sockets, codecs or containers.
 */
public interface RackRequest {
    String method();

    /** The request-target as sent: origin form ({@code /path?query}) or absolute form. */
    String target();

    /**
     * Where the application is mounted: {@code SCRIPT_NAME}. Empty at the root (the Netty door,
     * always); otherwise it starts with "/", does not end with one, and the target's path
     * starts with it, followed by the end of the path or a "/" (a servlet door passes the
     * context path). {@code PATH_INFO} is the rest of the path.
     */
    default String scriptName() {
        return "";
    }

    /** {@code HTTP/1.1}, {@code HTTP/1.0}, ... */
    String protocol();

    /** "http" or "https". */
    String scheme();

    /** Visits every header field in arrival order; repeated names arrive repeatedly. */
    void forEachHeader(HeaderVisitor visitor);

    /** The first value of a header (case-insensitive name), or null. */
    String header(String name);

    /**
     * Every value of a header (case-insensitive name) in arrival order; empty when absent.
     * Transports with an index of their own should override this scan.
     */
    default List<String> headers(String name) {
        List<String> values = new ArrayList<>(1);
        forEachHeader((n, v) -> {
            if (name.contentEquals(n) || name.equalsIgnoreCase(n.toString())) {
                values.add(v.toString());
            }
        });
        return values;
    }

    String remoteAddress();

    int remotePort();

    /** The local address the request arrived on: SERVER_NAME when there is no Host. */
    String localAddress();

    int localPort();

    RequestBody body();

    /** When this exchange reached each stage ({@link RequestTimes}). */
    RequestTimes times();

    /** This request's id ({@link RequestId#of}): the sane {@code X-Request-Id} it sent, else one made once for it. */
    String requestId();

    /**
     * The {@code :protocol} of an HTTP/2 extended CONNECT (RFC 8441), the protocol the client
     * asks the stream to carry ({@code websocket}); null for any other request.
     */
    default String connectProtocol() {
        return null;
    }

    /**
     * What the request may be upgraded to ({@code env['rack.upgrade?']}): {@link Upgrade#of}
     * of this request, which transports compute once and keep.
     */
    default Upgrade upgrade() {
        return Upgrade.NONE;
    }

    /**
     * Whether the connection can be handed to the application ({@code env['rack.hijack?']},
     * {@link ResponseSink#hijack}): true for a transport that owns its socket and speaks
     * HTTP/1.x on it. False by default.
     */
    default boolean hijackable() {
        return false;
    }

    /**
     * Env entries the transport adds as they are: its own Java objects, for applications that
     * reach past Rack (a servlet door's {@code java.servlet_request}, as jruby-rack sets).
     * None by default; the names must not be Rack's.
     */
    default Map<String, Object> transportEnv() {
        return Map.of();
    }
}
