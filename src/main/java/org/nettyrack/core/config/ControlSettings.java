package org.nettyrack.core.config;


/**
 * The control endpoint ({@code GET /stats}, {@code /thread-backtraces}, orders) and how long it
 * waits on a worker. Read by the Netty door, which starts a control server when
 * {@code control} is set.
 *
 * @param control the control endpoint's listener and token, or null for none
 * @param controlTimeoutMillis time {@code GET /thread-backtraces} waits for a worker thread to
 *     collect Ruby backtraces
 */
public record ControlSettings(ControlEndpoint control, long controlTimeoutMillis) {
    public static final ControlSettings DEFAULTS = new ControlSettings(null, 5_000);

    public void check() {
        Check.that(controlTimeoutMillis > 0, "control timeout must be positive");
        if (control == null) {
            return;
        }
        if ("unix".equals(control.listener().scheme())) {
            control.listener().check();
        } else {
            Check.that("tcp".equals(control.listener().scheme()),
                "control endpoint must be tcp or unix, got " + control.listener().scheme());
            Check.that(control.host() != null && !control.host().isEmpty(), "control host must not be empty");
            Check.that(control.port() >= 0 && control.port() <= 65535, "control port must be 0..65535, got " + control.port());
        }
        Check.that(control.token() == null || !control.token().isEmpty(),
            "control token must not be empty (opt out of tokens explicitly instead)");
    }
}
