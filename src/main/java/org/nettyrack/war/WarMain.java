package org.nettyrack.war;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * The Main-Class of a WAR built by {@code nettyrack war}: {@code java -jar app.war [options]}
 * serves the app with the Netty door, taking bin/nettyrack's options ({@code -p}, {@code -t},
 * ...) and {@code $PORT} as the CLI does.
 *
 * <p>{@code java -jar} puts only the WAR itself on the class path, not {@code WEB-INF/lib},
 * so {@code nettyrack war} copies this package's classes to the WAR root and nothing here
 * links to JRuby: the WAR is unpacked ({@link WarExtraction}, removed at exit), a class
 * loader is made over {@code WEB-INF/lib/*.jar}, and JRuby is reached through reflection.
 * JRuby then runs the packaged bin/nettyrack ({@code launcher} in
 * {@code META-INF/nettyrack/war.properties}) in {@code WEB-INF/}, with
 * {@code GEM_PATH=WEB-INF/gems}, {@code $RACK_ENV} defaulting to the WAR's {@code rack.env},
 * and, when a Gemfile is packaged, {@code $BUNDLE_GEMFILE} set to it and {@code $BUNDLE_WITHOUT}
 * defaulting to the groups left out of the WAR (so {@code require "bundler/setup"} does not
 * look for them). Its exit status is the JVM's.
 *
 * <p>bin/nettyrack starts its JVM once more with the settings it runs best with when this one
 * lacks them (lib/nettyrack/jvm_tuning.rb): {@code $NETTYRACK_WAR} tells it which WAR to hand
 * {@code java -jar}, and {@code $NETTYRACK_WAR_UNPACKED} tells the next JVM where this one
 * unpacked it.
 */
public final class WarMain {
    static final String PROPERTIES = "META-INF/nettyrack/war.properties";
    /** The WAR's path, for bin/nettyrack's own restart with JVM settings. */
    static final String WAR_VARIABLE = "NETTYRACK_WAR";
    /** Where the JVM before this one (same process) unpacked the WAR. */
    static final String UNPACKED_VARIABLE = "NETTYRACK_WAR_UNPACKED";

    private WarMain() {
    }

    public static void main(String[] args) {
        int status;
        try {
            status = run(args);
        } catch (UnsupportedClassVersionError e) {
            System.err.println("nettyrack: this WAR's JRuby needs a newer Java than " + Runtime.version().feature()
                    + " (" + e.getMessage() + ")");
            status = 1;
        } catch (Exception e) {
            System.err.println("nettyrack: cannot start the WAR: " + e);
            status = 1;
        }
        System.exit(status);
    }

    static int run(String[] args) throws Exception {
        Path war = ownArchive();
        Properties properties = properties();
        WarExtraction extraction = extraction(war);
        Thread cleanup = new Thread(extraction::delete, "nettyrack-war-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        try {
            return runJRuby(war, extraction, properties, args);
        } finally {
            extraction.delete();
            try {
                Runtime.getRuntime().removeShutdownHook(cleanup);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs anyway
            }
        }
    }

    private static WarExtraction extraction(Path war) throws IOException {
        String unpacked = System.getenv(UNPACKED_VARIABLE);
        WarExtraction adopted = unpacked == null || unpacked.isEmpty() ? null : WarExtraction.adopt(Path.of(unpacked), war);
        return adopted != null ? adopted : WarExtraction.unpack(war, Path.of(System.getProperty("java.io.tmpdir")));
    }

    private static int runJRuby(Path war, WarExtraction extraction, Properties properties, String[] args) throws Exception {
        Path app = extraction.appDirectory();
        URLClassLoader loader = new URLClassLoader("nettyrack-war", jars(app.resolve("lib")),
                WarMain.class.getClassLoader());
        Thread.currentThread().setContextClassLoader(loader);
        Class<?> configClass = loader.loadClass("org.jruby.RubyInstanceConfig");
        Object config = configClass.getConstructor().newInstance();
        configClass.getMethod("setCurrentDirectory", String.class).invoke(config, app.toString());
        Map<String, String> env = environment(app, properties);
        env.put(WAR_VARIABLE, war.toString());
        env.put(UNPACKED_VARIABLE, extraction.root().toString());
        configClass.getMethod("setEnvironment", Map.class).invoke(config, env);
        Class<?> mainClass = loader.loadClass("org.jruby.Main");
        Object main = mainClass.getConstructor(configClass).newInstance(config);
        Object status = mainClass.getMethod("run", String[].class).invoke(main, (Object) rubyArgs(app, properties, args));
        Method code = status.getClass().getMethod("getStatus");
        return (Integer) code.invoke(status);
    }

    static String[] rubyArgs(Path app, Properties properties, String[] args) {
        List<String> all = new ArrayList<>();
        all.add(app.resolve(required(properties, "launcher")).toString());
        all.addAll(List.of(args));
        return all.toArray(new String[0]);
    }

    static Map<String, String> environment(Path app, Properties properties) {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put("GEM_PATH", app.resolve("gems").toString());
        env.remove("GEM_HOME");
        env.putIfAbsent("RACK_ENV", properties.getProperty("rack.env", "production"));
        Path gemfile = app.resolve("Gemfile");
        if (Files.isRegularFile(gemfile)) {
            env.put("BUNDLE_GEMFILE", gemfile.toString());
            env.putIfAbsent("BUNDLE_WITHOUT", properties.getProperty("bundle.without", ""));
        }
        return env;
    }

    private static URL[] jars(Path lib) throws IOException {
        try (Stream<Path> files = Files.list(lib)) {
            List<URL> urls = new ArrayList<>();
            for (Path jar : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".jar")).sorted()::iterator) {
                urls.add(jar.toUri().toURL());
            }
            return urls.toArray(new URL[0]);
        }
    }

    private static Path ownArchive() throws URISyntaxException {
        return Path.of(WarMain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    private static Properties properties() throws IOException {
        Properties properties = new Properties();
        try (InputStream in = WarMain.class.getClassLoader().getResourceAsStream(PROPERTIES)) {
            if (in == null) {
                throw new IOException(PROPERTIES + " is missing: build the WAR with `nettyrack war`");
            }
            properties.load(in);
        }
        return properties;
    }

    private static String required(Properties properties, String key) {
        String value = properties.getProperty(key);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException(PROPERTIES + " has no " + key);
        }
        return value;
    }
}
