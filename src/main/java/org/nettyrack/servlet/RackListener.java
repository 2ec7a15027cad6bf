package org.nettyrack.servlet;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.nettyrack.core.host.HostedApp;

/**
 * Boots the web app's Rack application when the container deploys it, and stops it on
 * undeploy. One JRuby runtime serves every request (nettyrack's bridge is thread-safe): the
 * context params (jruby-rack's names: {@code rackup}, {@code rackup.path}, {@code rack.env},
 * {@code public.root}, {@code gem.path}, {@code app.root}, {@code jruby.max.runtimes}; our limits
 * by their CLI names, {@code max-body-size}) → the bridge's {@link HostedApp.Booter}, found
 * with {@link ServiceLoader} in the web app's class loader → a {@link ServletDoor} in a context
 * attribute, where {@link RackFilter} and {@link RackServlet} find it.
 *
 * <p>A boot failure (no config.ru, a syntax error, a bad param) is one line in the container's
 * log, and the exception thrown here fails the deployment.
 *
 * <p>Booting and stopping run Ruby, so they run on a thread of their own that ends with them:
 * JRuby's thread locals must not stay on the container's thread (see {@link ServletDoor}).
 */
public final class RackListener implements ServletContextListener {
    private HostedApp app;

    @Override
    public void contextInitialized(ServletContextEvent event) {
        ServletContext context = event.getServletContext();
        Map<String, String> params = new HashMap<>();
        for (String name : Collections.list(context.getInitParameterNames())) {
            params.put(name, context.getInitParameter(name));
        }
        try {
            warnAboutRuntimes(context, params.get("jruby.max.runtimes"));
            String root = context.getRealPath("/");
            if (root == null) {
                throw new HostedApp.BootFailure("the web app has no directory (getRealPath(\"/\") is null):"
                    + " let the container unpack the WAR");
            }
            HostedApp.Booter booter = ServiceLoader.load(HostedApp.Booter.class, context.getClassLoader()).findFirst()
                .orElseThrow(() -> new HostedApp.BootFailure("the nettyrack jar (org.nettyrack.jruby) is not in WEB-INF/lib"));
            HostedApp.Settings settings = new HostedApp.Settings(params, root, context.getClassLoader(),
                Map.of("$servlet_context", context), line -> context.log("nettyrack: " + line));
            app = onOwnThread("nettyrack boot", () -> booter.boot(settings));
            context.setAttribute(ServletDoor.ATTRIBUTE, door(context, params));
        } catch (HostedApp.BootFailure e) {
            String line = "nettyrack: cannot boot the Rack app of " + name(context) + ": " + e.getMessage();
            context.log(line);
            throw new HostedApp.BootFailure(line);
        }
    }

    /**
     * The door for the booted app; when it cannot be made, the app is stopped again before the
     * failure fails the deployment (its runtime and threads would be left behind otherwise).
     */
    private ServletDoor door(ServletContext context, Map<String, String> params) {
        try {
            return new ServletDoor(app, context, new ContainerFiles(context, params.get("public.root")), mapAsync(context),
                params.get("metrics-path"), params.get("metrics-token"));
        } catch (RuntimeException | Error e) {
            stopApp();
            throw e;
        }
    }

    @Override
    public void contextDestroyed(ServletContextEvent event) {
        Object door = event.getServletContext().getAttribute(ServletDoor.ATTRIBUTE);
        event.getServletContext().removeAttribute(ServletDoor.ATTRIBUTE);
        if (door instanceof ServletDoor) {
            ((ServletDoor) door).close();
        }
        stopApp();
    }

    private void stopApp() {
        if (app != null) {
            HostedApp stopping = app;
            app = null;
            onOwnThread("nettyrack stop", () -> {
                stopping.close();
                return null;
            });
        }
    }

    /**
     * Runs the work on a new thread (the caller's context class loader) and waits for it; what
     * it threw is thrown here. A JRuby built for a newer Java than the container's fails its
     * first class: that is a boot failure of one line, not a stack trace.
     */
    private static <T> T onOwnThread(String name, Supplier<T> work) {
        AtomicReference<T> result = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread thread = new Thread(() -> {
            try {
                result.set(work.get());
            } catch (RuntimeException | Error e) {
                failure.set(e);
            }
        }, name);
        thread.setContextClassLoader(Thread.currentThread().getContextClassLoader());
        thread.start();
        boolean interrupted = false;
        while (true) {
            try {
                thread.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        Throwable failed = failure.get();
        if (failed instanceof UnsupportedClassVersionError) {
            throw new HostedApp.BootFailure("this WAR's JRuby needs a newer Java than " + Runtime.version().feature()
                + " (" + failed.getMessage() + ")");
        } else if (failed instanceof RuntimeException) {
            throw (RuntimeException) failed;
        } else if (failed instanceof Error) {
            throw (Error) failed;
        }
        return result.get();
    }

    /**
     * Maps every {@link RackFilter} of the web app for ASYNC dispatches as well, on the patterns
     * and servlet names it has (web.xml's mapping may say REQUEST only): true when done. The
     * container refuses once the web app runs, or to a listener it did not find in web.xml;
     * the filter then keeps the container's thread while the app runs, as before.
     */
    private static boolean mapAsync(ServletContext context) {
        try {
            for (FilterRegistration filter : context.getFilterRegistrations().values()) {
                if (!RackFilter.class.getName().equals(filter.getClassName())) {
                    continue;
                }
                EnumSet<DispatcherType> async = EnumSet.of(DispatcherType.ASYNC);
                if (!filter.getUrlPatternMappings().isEmpty()) {
                    filter.addMappingForUrlPatterns(async, true, filter.getUrlPatternMappings().toArray(String[]::new));
                }
                if (!filter.getServletNameMappings().isEmpty()) {
                    filter.addMappingForServletNames(async, true, filter.getServletNameMappings().toArray(String[]::new));
                }
            }
            return true;
        } catch (IllegalStateException | UnsupportedOperationException e) {
            context.log("nettyrack: RackFilter stays on the container's request thread while the app runs"
                + " (it could not be mapped for ASYNC dispatches: " + e + ")");
            return false;
        }
    }

    private static void warnAboutRuntimes(ServletContext context, String value) {
        if (value == null) {
            return;
        }
        int runtimes;
        try {
            runtimes = Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new HostedApp.BootFailure("jruby.max.runtimes=" + value + " is not a whole number");
        }
        if (runtimes > 1) {
            context.log("nettyrack: jruby.max.runtimes=" + runtimes + " ignored: one thread-safe JRuby runtime serves"
                + " every request");
        }
    }

    private static String name(ServletContext context) {
        String path = context.getContextPath();
        return path.isEmpty() ? "/" : path;
    }
}
