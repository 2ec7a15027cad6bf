package org.nettyrack.jruby;

import java.io.File;
import java.util.Map;
import org.jruby.RubyInstanceConfig;
import org.jruby.util.cli.Options;
import org.jruby.util.collections.ClassValue;

/**
 * The JRuby settings that let a container collect an undeployed web app's class loader (and
 * with it all of JRuby's classes in metaspace), applied to a hosted runtime's config before it
 * starts. Each one removes a reference from outside the web app into it that JRuby would
 * otherwise leave behind for ever:
 *
 * <ul>
 *   <li>Java proxies cached in a map of the runtime's own ({@code jruby.ji.class.values=HARD_MAP})
 *       instead of in {@link java.lang.ClassValue}s, whose entries stay on the JDK's classes
 *       ({@code String.class}...) after teardown and hold JRuby's {@code StableValue} class.
 *   <li>No native support ({@code jruby.native.enabled}, context param, default false here):
 *       jffi registers its call contexts and libraries on a {@link java.lang.ref.Cleaner} of its
 *       own, whose thread never ends, since what it cleans is reachable from jffi's statics.
 *   <li>The nested-jar temp dir made before JRuby makes it: JRuby registers a JVM shutdown hook
 *       (a thread of its own class, to empty that dir) only when it creates the dir itself.
 *       The runtime's class loader still deletes its own temp jars on teardown.
 * </ul>
 *
 * {@link Options} are static in the JRuby that the web app carries (WEB-INF/lib), so forcing
 * one here affects this web app alone; a JRuby shared by several web apps is never unloaded.
 */
final class UnloadableRuntime {
    static final String NATIVE_PARAM = "jruby.native.enabled";

    private UnloadableRuntime() {
    }

    static void configure(RubyInstanceConfig config, Map<String, String> params) {
        Options.JI_CLASS_VALUES.force(ClassValue.Type.HARD_MAP.name());
        config.setNativeEnabled(Boolean.parseBoolean(params.getOrDefault(NATIVE_PARAM, "false").trim()));
        nestedJarTempDir().mkdirs();
    }

    /** Where JRubyClassLoader copies a jar found inside a jar: TMPDIR/jruby-PID. */
    static File nestedJarTempDir() {
        String parent = Options.JI_NESTED_JAR_TMPDIR.load();
        if (parent == null) {
            parent = System.getProperty("java.io.tmpdir", "");
        }
        return new File(parent, "jruby-" + ProcessHandle.current().pid());
    }
}
