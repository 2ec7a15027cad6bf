package org.nettyrack.core.config;

import java.util.List;

/**
 * Where a server listens: its binds (a tcp, ssl or unix listener each) and whether every
 * connection must open with a PROXY protocol header. Read by the Netty door when it opens its
 * listeners and builds each connection's pipeline; the servlet door listens where its container does.
 *
 * @param binds the listeners, in order; {@link #DEFAULTS} is one on 0.0.0.0:9292
 * @param proxyProtocol whether every connection must open with a PROXY protocol header (v1 or
 *     v2) from a load balancer, whose source address then stands for the client; a connection
 *     without one is dropped. Off by default: the header is then refused like any malformed request.
 */
public record Listen(List<Bind> binds, boolean proxyProtocol) {
    public static final Listen DEFAULTS = new Listen(List.of(new Bind("0.0.0.0", 9292)), false);

    public Listen {
        binds = List.copyOf(binds);
    }

    public void check() {
        binds.forEach(Bind::check);
    }
}
