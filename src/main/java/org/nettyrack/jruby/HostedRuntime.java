package org.nettyrack.jruby;

import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;
import org.jruby.Ruby;
import org.jruby.RubyArray;
import org.jruby.RubyHash;
import org.jruby.RubyInstanceConfig;
import org.jruby.exceptions.RaiseException;
import org.jruby.javasupport.JavaUtil;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.builtin.IRubyObject;
import org.nettyrack.core.RackHandler;
import org.nettyrack.core.config.ServerConfig;
import org.nettyrack.core.host.HostedApp;
import org.nettyrack.core.push.PubSub;

/**
 * One JRuby runtime for a web app, and the {@link RackBridge} in front of its Rack
 * application. {@link HostedBooter} makes it: a runtime on the host's class loader, with
 * GEM_PATH ({@code gem.path}), RACK_ENV ({@code rack.env}, default production) and JRuby's home
 * ({@code jruby.home}, for a jruby.jar without its stdlib) set before it starts, and for a WAR
 * from {@code nettyrack war} BUNDLE_GEMFILE and BUNDLE_WITHOUT as {@code java -jar} sets them; the host's
 * globals; then {@code Nettyrack::HostedApp.boot} (lib/nettyrack/hosted_app.rb) loads the rackup.
 * {@link UnloadableRuntime} sets what lets the web app's class loader go after an undeploy.
 * {@link #close} tears the runtime down ({@link RuntimeTeardown}).
 */
final class HostedRuntime implements HostedApp {
    /** Where nettyrack.jar carries lib/ (see pom.xml): on the load path when present. */
    private static final String LIB = "META-INF/nettyrack/lib";
    /** Written by {@code nettyrack war} at the WAR's root. */
    private static final String WAR_PROPERTIES = "META-INF/nettyrack/war.properties";

    private final Ruby runtime;
    private final RackBridge bridge;
    private final ServerConfig config;
    private final PubSub pubsub;
    private final Consumer<String> log;
    private boolean closed;

    private HostedRuntime(Ruby runtime, RackBridge bridge, ServerConfig config, PubSub pubsub, Consumer<String> log) {
        this.runtime = runtime;
        this.bridge = bridge;
        this.config = config;
        this.pubsub = pubsub;
        this.log = log;
    }

    static HostedRuntime boot(Settings settings) {
        Map<String, String> params = settings.params();
        String rackEnv = params.getOrDefault("rack.env", "production");
        Ruby runtime = Ruby.newInstance(instanceConfig(settings, rackEnv));
        try {
            ThreadContext context = runtime.getCurrentContext();
            new NettyrackLibrary().load(runtime, false);
            settings.globals().forEach((name, value) ->
                runtime.getGlobalVariables().set(name, JavaUtil.convertJavaToUsableRubyObject(runtime, value)));
            requireHostedApp(runtime);
            RubyHash rubyParams = RubyHash.newHash(runtime);
            params.forEach((k, v) -> rubyParams.op_aset(context, runtime.newString(k), runtime.newString(v)));
            IRubyObject hosted = runtime.getModule("Nettyrack").getConstant("HostedApp");
            RubyArray<?> booted = (RubyArray<?>) hosted.callMethod(context, "boot", new IRubyObject[] {
                rubyParams, runtime.newString(settings.root()), JavaUtil.convertJavaToUsableRubyObject(runtime, settings.log())});
            ServerConfig config = booted.entry(1).toJava(ServerConfig.class);
            PubSub pubsub = booted.entry(2).toJava(PubSub.class);
            IRubyObject errors = runtime.getGlobalVariables().get("$stderr");
            RackBridge bridge = new RackBridge(booted.entry(0), errors, "development".equals(rackEnv), pubsub);
            return new HostedRuntime(runtime, bridge, config, pubsub, settings.log());
        } catch (RaiseException e) {
            runtime.tearDown(false);
            throw new BootFailure(describe(runtime, e));
        } catch (RuntimeException | Error e) {
            runtime.tearDown(false);
            throw e;
        }
    }

    private static RubyInstanceConfig instanceConfig(Settings settings, String rackEnv) {
        Map<String, String> params = settings.params();
        RubyInstanceConfig config = new RubyInstanceConfig();
        config.setLoader(settings.loader());
        UnloadableRuntime.configure(config, params);
        config.setCurrentDirectory(settings.root());
        String home = params.get("jruby.home");
        if (home != null && !home.isBlank()) {
            config.setJRubyHome(home);
        }
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put("RACK_ENV", rackEnv);
        String gemPath = params.getOrDefault("gem.path", "/WEB-INF/gems");
        List<String> gems = new ArrayList<>();
        for (String entry : gemPath.split(File.pathSeparator)) {
            if (!entry.isBlank()) {
                File inside = new File(settings.root(), entry);
                gems.add(inside.exists() || !new File(entry).exists() ? inside.getPath() : entry);
            }
        }
        if (!gems.isEmpty()) {
            env.put("GEM_HOME", gems.get(0));
        }
        // A GEM_PATH replaces RubyGems' default path, and with it the gems JRuby ships in its
        // stdlib (ostruct, which Sinatra needs, since Ruby 3.5): they stay on the path, last.
        gems.add(config.getJRubyHome() + "/lib/ruby/gems/shared");
        env.put("GEM_PATH", String.join(File.pathSeparator, gems));
        bundler(settings, env);
        config.setEnvironment(env);
        if (settings.loader().getResource(LIB + "/nettyrack/hosted_app.rb") != null) {
            config.setLoadPaths(List.of("uri:classloader:/" + LIB));
        }
        return config;
    }

    /**
     * Bundler (a Rails app's config/boot.rb) must read the packaged Gemfile and leave out the
     * groups {@code nettyrack war} did not package, which its war.properties names, as
     * {@code java -jar} does (WarMain).
     */
    private static void bundler(Settings settings, Map<String, String> env) {
        File gemfile = new File(new File(settings.root(), settings.params().getOrDefault("app.root", "/WEB-INF")), "Gemfile");
        if (!gemfile.isFile()) {
            return;
        }
        env.put("BUNDLE_GEMFILE", gemfile.getPath());
        Properties war = new Properties();
        try (InputStream in = new FileInputStream(new File(settings.root(), WAR_PROPERTIES))) {
            war.load(in);
        } catch (IOException notFromNettyrackWar) {
            return;
        }
        String without = war.getProperty("bundle.without", "");
        if (!without.isBlank()) {
            env.putIfAbsent("BUNDLE_WITHOUT", without);
        }
    }

    private static void requireHostedApp(Ruby runtime) {
        try {
            runtime.getLoadService().require("nettyrack/hosted_app");
        } catch (RaiseException e) {
            if (e.getException().getMetaClass().getName().equals("LoadError")) {
                throw new BootFailure("nettyrack's Ruby files are missing: put nettyrack.jar (which carries them) or the"
                    + " nettyrack gem (on gem.path) in the web app (" + e.getMessage() + ")");
            }
            throw e;
        }
    }

    /** A nettyrack error's own message; anything else with its class. */
    static String describe(Ruby runtime, RaiseException e) {
        IRubyObject error = e.getException();
        IRubyObject ours = runtime.getModule("Nettyrack").getConstantAt("Error");
        if (ours != null && error.getMetaClass().isKindOfModule((org.jruby.RubyModule) ours)) {
            return error.callMethod(runtime.getCurrentContext(), "message").toString();
        }
        return AppErrors.describe(runtime.getCurrentContext(), e);
    }

    @Override
    public RackHandler handler() {
        return bridge;
    }

    @Override
    public PubSub pubsub() {
        return pubsub;
    }

    @Override
    public ServerConfig config() {
        return config;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            pubsub.close();
        } catch (Exception ignored) {
            // The runtime still has to go.
        }
        RuntimeTeardown.tearDown(runtime, log);
    }
}
