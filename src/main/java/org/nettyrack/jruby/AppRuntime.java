package org.nettyrack.jruby;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.jruby.Ruby;
import org.jruby.RubyHash;
import org.jruby.RubyInstanceConfig;
import org.jruby.exceptions.RaiseException;
import org.jruby.javasupport.JavaUtil;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.builtin.IRubyObject;
import org.nettyrack.core.RackHandler;
import org.nettyrack.core.host.HostedApp.BootFailure;
import org.nettyrack.core.push.PubSub;

/**
 * A new version of the application in a JRuby runtime of its own, beside the one that runs the
 * server, for a reload inside this JVM (lib/nettyrack/app_reload.rb). The runtime starts as the
 * server's did (its JRuby options, load path, environment, directory) on the server's class
 * loader, so nettyrack's and Netty's classes are the ones already loaded, and it shares the
 * server's pub/sub engine; {@code Nettyrack::ReloadedApp.boot} (lib/nettyrack/reloaded_app.rb)
 * loads the rackup in it. {@link #retire} sends its push clients away and ends the runtime
 * ({@link RuntimeTeardown}).
 *
 * <pre>
 * AppRuntime next = AppRuntime.boot(parent, dir, env, loadPaths, spec, pubsub, false, log);  // BootFailure: one line
 * appSwitch.begin(next.handler(), canary) ... next.retire(30_000) once replaced in turn
 * </pre>
 */
public final class AppRuntime {
    private final Ruby runtime;
    private final RackBridge bridge;
    private final Consumer<String> log;
    private boolean retired;

    private AppRuntime(Ruby runtime, RackBridge bridge, Consumer<String> log) {
        this.runtime = runtime;
        this.bridge = bridge;
        this.log = log;
    }

    /**
     * Boots the application of {@code spec} (String keys and values, read by
     * {@code ReloadedApp.boot}) in a new runtime made like {@code parent}, in {@code directory}
     * with {@code env} and {@code loadPaths}; throws {@link BootFailure} with one line when it
     * cannot.
     */
    public static AppRuntime boot(Ruby parent, String directory, Map<String, String> env, List<String> loadPaths,
                                  Map<String, String> spec, PubSub pubsub, boolean development, Consumer<String> log) {
        RubyInstanceConfig config = new RubyInstanceConfig(parent.getInstanceConfig());
        config.setLoader(parent.getJRubyClassLoader());
        config.setCurrentDirectory(directory);
        config.setEnvironment(env);
        config.setLoadPaths(loadPaths);
        config.setHardExit(false);
        UnloadableRuntime.configure(config, Map.of(UnloadableRuntime.NATIVE_PARAM,
            String.valueOf(parent.getInstanceConfig().isNativeEnabled())));
        Ruby runtime = Ruby.newInstance(config);
        try {
            ThreadContext context = runtime.getCurrentContext();
            runtime.getLoadService().require("nettyrack/reloaded_app");
            RubyHash options = RubyHash.newHash(runtime);
            spec.forEach((k, v) -> options.op_aset(context, runtime.newString(k), v == null ? runtime.getNil() : runtime.newString(v)));
            IRubyObject app = runtime.getModule("Nettyrack").getConstant("ReloadedApp").callMethod(context, "boot",
                new IRubyObject[] {options, JavaUtil.convertJavaToUsableRubyObject(runtime, pubsub)});
            IRubyObject errors = runtime.getGlobalVariables().get("$stderr");
            return new AppRuntime(runtime, new RackBridge(app, errors, development, pubsub), log);
        } catch (RaiseException e) {
            String line = HostedRuntime.describe(runtime, e);
            RuntimeTeardown.tearDown(runtime, log);
            throw new BootFailure(line);
        } catch (RuntimeException | Error e) {
            RuntimeTeardown.tearDown(runtime, log);
            throw e;
        }
    }

    /** Where its requests go. */
    public RackHandler handler() {
        return bridge;
    }

    /**
     * Replaced by another version (or rolled back), once it runs no request any more: its push
     * clients get {@code on_shutdown} and 1001 and are waited for ({@code timeoutMillis} at
     * most), then the runtime ends. Returns false when some push client had not ended in time.
     * Once only; later calls return true at once.
     */
    public synchronized boolean retire(long timeoutMillis) throws InterruptedException {
        if (retired) {
            return true;
        }
        retired = true;
        boolean allGone = bridge.sendPushClientsAway(timeoutMillis);
        RuntimeTeardown.tearDown(runtime, log);
        return allGone;
    }
}
