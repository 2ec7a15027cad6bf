package org.nettyrack.core;

/**
 * A complete request as the application sees it: the head as sent, the connection's
 * addresses, and a body already read in full (see {@link RequestBody}). Transports adapt
 * their own request type to this; nothing here knows about sockets or codecs.
 */
public interface RackRequest {
    String method();

    /** The request-target as sent: origin form ({@code /path?query}) or absolute form. */
    String target();

    /** {@code HTTP/1.1}, {@code HTTP/1.0}, ... */
    String protocol();

    /** "http" or "https". */
    String scheme();

    /** Visits every header field in arrival order; repeated names arrive repeatedly. */
    void forEachHeader(HeaderVisitor visitor);

    /** The first value of a header (case-insensitive name), or null. */
    String header(String name);

    String remoteAddress();

    int remotePort();

    /** The local address the request arrived on: SERVER_NAME when there is no Host. */
    String localAddress();

    int localPort();

    RequestBody body();

    /** What the request may be upgraded to ({@code env['rack.upgrade?']}). */
    default org.nettyrack.core.push.Upgrade upgrade() {
        return org.nettyrack.core.push.Upgrade.NONE;
    }
}
