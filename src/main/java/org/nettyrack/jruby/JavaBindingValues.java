package org.nettyrack.jruby;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.jruby.Ruby;
import org.jruby.javasupport.JavaSupport;
import org.jruby.javasupport.binding.MethodGatherer;

/**
 * Takes back what JRuby's Java integration leaves on the Java classes a runtime bound, the JDK's
 * among them, which outlive the web app. MethodGatherer keeps a value per class in static
 * {@link ClassValue}s ({@code PartitionedMethods}, a class of JRuby's); once the ClassValue is
 * gone the JDK drops such a value only lazily, so {@code String.class} and the like would keep
 * the web app's class loader for ever. {@link #of} notes the bound classes before teardown:
 * those the runtime made Java proxies for (its proxy cache is a plain map, see
 * {@link UnloadableRuntime}); {@link #release} removes their values, and their superclasses'
 * and interfaces', from every such ClassValue after it.
 *
 * <p>JRuby's internals are read by reflection: when they are not as expected (another JRuby),
 * one line says so and nothing is removed.
 */
final class JavaBindingValues {
    private final Set<Class<?>> bound;
    private final Consumer<String> log;

    private JavaBindingValues(Set<Class<?>> bound, Consumer<String> log) {
        this.bound = bound;
        this.log = log;
    }

    @SuppressWarnings("unchecked") // the proxy cache maps Java classes to their proxies
    static JavaBindingValues of(Ruby runtime, Consumer<String> log) {
        try {
            Field cacheField = JavaSupport.class.getDeclaredField("proxyClassCache");
            cacheField.setAccessible(true);
            Object cache = cacheField.get(runtime.getJavaSupport());
            Field mapField = cache.getClass().getDeclaredField("cache");
            mapField.setAccessible(true);
            return new JavaBindingValues(Set.copyOf(((Map<Class<?>, ?>) mapField.get(cache)).keySet()), log);
        } catch (ReflectiveOperationException | RuntimeException e) {
            log.accept("cannot list the Java classes JRuby bound (" + e + "): an undeployed web app's classes may stay in memory");
            return new JavaBindingValues(Set.of(), log);
        }
    }

    void release() {
        if (bound.isEmpty()) {
            return;
        }
        Set<Class<?>> classes = withSupertypes(bound);
        try {
            for (Field field : MethodGatherer.class.getDeclaredFields()) {
                if (Modifier.isStatic(field.getModifiers()) && ClassValue.class.isAssignableFrom(field.getType())) {
                    field.setAccessible(true);
                    ClassValue<?> values = (ClassValue<?>) field.get(null);
                    classes.forEach(values::remove);
                }
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            log.accept("cannot clear JRuby's method caches on Java classes (" + e + "): an undeployed web app's classes may"
                + " stay in memory");
        }
    }

    /** The classes, their superclasses and all their interfaces (MethodGatherer walks those). */
    private static Set<Class<?>> withSupertypes(Set<Class<?>> classes) {
        Set<Class<?>> all = new HashSet<>();
        Deque<Class<?>> todo = new ArrayDeque<>(classes);
        while (!todo.isEmpty()) {
            Class<?> type = todo.pop();
            if (type == null || !all.add(type)) {
                continue;
            }
            if (type.getSuperclass() != null) {
                todo.push(type.getSuperclass());
            }
            for (Class<?> iface : type.getInterfaces()) {
                todo.push(iface);
            }
        }
        return all;
    }
}
