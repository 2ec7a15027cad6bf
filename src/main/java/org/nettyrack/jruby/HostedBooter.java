package org.nettyrack.jruby;

import org.nettyrack.core.host.HostedApp;

/**
 * The bridge's {@link HostedApp.Booter}, registered in META-INF/services for hosts that find
 * it with {@link java.util.ServiceLoader} (the servlet door): boots a {@link HostedRuntime}.
 */
public final class HostedBooter implements HostedApp.Booter {
    @Override
    public HostedApp boot(HostedApp.Settings settings) {
        return HostedRuntime.boot(settings);
    }
}
