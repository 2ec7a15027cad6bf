package org.nettyrack.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.nettyrack.core.ErrorLog;
import org.nettyrack.core.Upgrade;
import org.nettyrack.core.config.ServerConfig;

/**
 * The door in a container without the Jakarta WebSocket API at all, as Jetty 12 is without its
 * {@code ee10-websocket-jakarta} module: the servlet door's classes, loaded where
 * {@code jakarta.websocket} cannot be found, still make their {@link Upgrades} (which failed
 * with NoClassDefFoundError: jakarta/websocket/DeploymentException, and so every request got
 * 503), which offers no WebSocket, has the door answer a handshake 501, and logs one line.
 */
class UpgradesWithoutWebSocketTest {
    @Test
    void aContainerWithoutTheWebSocketApiStillGetsUpgrades() throws Exception {
        ClassLoader loader = new WithoutWebSocketApi(getClass().getClassLoader());
        assertThrows(ClassNotFoundException.class, () -> loader.loadClass("jakarta.websocket.DeploymentException"));
        List<String> logged = new ArrayList<>();
        ServletContext context = proxy(ServletContext.class, (method, args) -> {
            if (method.getName().equals("log")) {
                logged.add((String) args[0]);
            }
            return null; // no attributes: no ServerContainer
        });
        HttpServletRequest request = proxy(HttpServletRequest.class, (method, args) ->
            method.getName().equals("isAsyncSupported") ? Boolean.TRUE : null);

        Class<?> type = loader.loadClass(Upgrades.class.getName());
        assertEquals(loader, type.getClassLoader());
        Constructor<?> make = type.getDeclaredConstructor(ServletContext.class, ServerConfig.class, ErrorLog.class,
            org.nettyrack.core.ops.ServerCounters.class);
        make.setAccessible(true);
        Object upgrades = make.newInstance(context, ServerConfig.builder().threads(1, 1).build(), ErrorLog.stderr(),
            new org.nettyrack.core.ops.ServerCounters());
        try {
            assertEquals(List.of(Upgrades.NO_WEBSOCKET), logged);
            assertEquals(Upgrade.NONE, call(upgrades, "offered", request, Upgrade.WEBSOCKET));
            assertEquals(Upgrade.SSE, call(upgrades, "offered", request, Upgrade.SSE));
            assertTrue((Boolean) call(upgrades, "unavailable", Upgrade.WEBSOCKET));
            assertFalse((Boolean) call(upgrades, "unavailable", Upgrade.SSE));
            assertFalse((Boolean) call(upgrades, "unavailable", Upgrade.NONE));
        } finally {
            call(upgrades, "close");
        }
    }

    private static Object call(Object target, String name, Object... args) throws Exception {
        for (Method method : target.getClass().getDeclaredMethods()) {
            if (method.getName().equals(name) && method.getParameterCount() == args.length) {
                method.setAccessible(true);
                return method.invoke(target, args);
            }
        }
        throw new NoSuchMethodException(name);
    }

    private interface Answer {
        Object answer(Method method, Object[] args);
    }

    private static <T> T proxy(Class<T> type, Answer answer) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
            (self, method, args) -> method.getDeclaringClass() == Object.class
                ? (method.getName().equals("equals") ? self == args[0] : System.identityHashCode(self))
                : answer.answer(method, args)));
    }

    /**
     * The servlet door's own classes, defined again from the same bytes, in a loader where no
     * {@code jakarta.websocket} class exists; everything else (the core, the servlet API) comes
     * from the test's loader.
     */
    private static final class WithoutWebSocketApi extends ClassLoader {
        private static final String DOOR = Upgrades.class.getPackageName() + ".";

        WithoutWebSocketApi(ClassLoader parent) {
            super(parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(name)) {
                if (name.startsWith("jakarta.websocket.")) {
                    throw new ClassNotFoundException(name);
                }
                if (!name.startsWith(DOOR) || name.contains("Test")) {
                    return super.loadClass(name, resolve);
                }
                Class<?> loaded = findLoadedClass(name);
                if (loaded == null) {
                    loaded = defineFromParent(name);
                }
                if (resolve) {
                    resolveClass(loaded);
                }
                return loaded;
            }
        }

        private Class<?> defineFromParent(String name) throws ClassNotFoundException {
            try (InputStream in = getParent().getResourceAsStream(name.replace('.', '/') + ".class")) {
                if (in == null) {
                    throw new ClassNotFoundException(name);
                }
                byte[] bytes = in.readAllBytes();
                return defineClass(name, bytes, 0, bytes.length);
            } catch (IOException e) {
                throw new ClassNotFoundException(name, e);
            }
        }
    }
}
