package org.nettyrack.core.config;


/**
 * The control endpoint ({@code GET /stats}, {@code /thread-backtraces}, orders) and how long it
 * waits on a worker. Read by the Netty door, which starts a control server when
 * {@code control} is set.
 *
 * @param control the control endpoint's listener and token, or null for none
 * @param controlTimeoutMillis time {@code GET /thread-backtraces} waits for a worker thread to
 *     collect Ruby backtraces
 * @param metrics the metrics listener ({@code GET /metrics} and the probes, no token), or null for none
 */
public record ControlSettings(ControlEndpoint control, long controlTimeoutMillis, ControlEndpoint metrics) {
    public static final ControlSettings DEFAULTS = new ControlSettings(null, 5_000, null);

    public ControlSettings(ControlEndpoint control, long controlTimeoutMillis) {
        this(control, controlTimeoutMillis, null);
    }

    public void check() {
        Check.that(controlTimeoutMillis > 0, "control timeout must be positive");
        if (metrics != null) {
            check(metrics, "metrics listener");
        }
        if (control != null) {
            check(control, "control endpoint");
        }
    }

    private static void check(ControlEndpoint control, String what) {
        if ("unix".equals(control.listener().scheme())) {
            control.listener().check();
        } else {
            String name = what.substring(0, what.indexOf(' '));
            Check.that("tcp".equals(control.listener().scheme()),
                what + " must be tcp or unix, got " + control.listener().scheme());
            Check.that(control.host() != null && !control.host().isEmpty(), name + " host must not be empty");
            Check.that(control.port() >= 0 && control.port() <= 65535, name + " port must be 0..65535, got " + control.port());
        }
        Check.that(control.token() == null || !control.token().isEmpty(),
            "control token must not be empty (opt out of tokens explicitly instead)");
    }
}
