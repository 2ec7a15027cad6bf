package org.nettyrack.core.config;

/**
 * The control endpoint's listener ({@code tcp://host:port}, or a {@code unix} socket path)
 * and the token a caller must show; a null token means none is asked for (an explicit
 * opt-out on the Ruby side).
 */
public record ControlEndpoint(Bind listener, String token) {
    public ControlEndpoint(String host, int port, String token) {
        this(new Bind(host, port), token);
    }

    public String host() {
        return listener.host();
    }

    public int port() {
        return listener.port();
    }

    /** Keeps the token out of logs and exception messages. */
    @Override
    public String toString() {
        String where = "unix".equals(listener.scheme()) ? listener.url() : listener.host() + ":" + listener.port();
        return "ControlEndpoint[" + where + (token == null ? ", no token]" : ", token]");
    }
}
