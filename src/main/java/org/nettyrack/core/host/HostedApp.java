package org.nettyrack.core.host;

import java.util.Map;
import java.util.function.Consumer;
import org.nettyrack.core.RackHandler;
import org.nettyrack.core.config.ServerConfig;

/**
 * A Rack application booted by a host that is not nettyrack's own launcher (a servlet
 * container): the handler its requests go to, the limits its settings gave, and how to stop
 * it. The host finds a {@link Booter} with {@link java.util.ServiceLoader} in its class loader
 * (the bridge registers one), so a door needs no import of the bridge, and the bridge none of
 * the door.
 *
 * <p>Flow: host settings → {@link Booter#boot} (a runtime, the rackup loaded) → {@link #handler}
 * for every request, on the host's request threads → {@link #close} when the host stops.
 */
public interface HostedApp extends AutoCloseable {
    RackHandler handler();

    /** The limits the settings named (body size and buffering, push), defaults for the rest. */
    ServerConfig config();

    /** The pub/sub engine the application's push goes through (its metrics), or null for none. */
    default org.nettyrack.core.push.PubSub pubsub() {
        return null;
    }

    /** Stops the application's runtime; requests must have stopped. Runs once; never throws. */
    @Override
    void close();

    /** Boots one {@link HostedApp}. */
    interface Booter {
        /** Throws {@link BootFailure} with one line a person can act on when the app cannot boot. */
        HostedApp boot(Settings settings);
    }

    /**
     * What a host knows: its settings by name (for a servlet container, the context params),
     * the directory the application was deployed into, the class loader that holds nettyrack
     * and JRuby, Ruby globals to set before the rackup loads ({@code $servlet_context}), and
     * where to log a line.
     */
    record Settings(Map<String, String> params, String root, ClassLoader loader, Map<String, Object> globals,
                    Consumer<String> log) {
    }

    /** The application could not boot: no rackup, a syntax error, a bad setting. */
    final class BootFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public BootFailure(String message) {
            super(message, null, false, false);
        }
    }
}
