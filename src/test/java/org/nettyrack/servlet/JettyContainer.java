package org.nettyrack.servlet;

import java.net.URI;
import java.nio.file.Path;
import org.eclipse.jetty.ee10.webapp.WebAppContext;
import org.eclipse.jetty.ee10.websocket.jakarta.server.config.JakartaWebSocketServletContainerInitializer;
import org.eclipse.jetty.server.handler.ContextHandlerCollection;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * Jetty 12, ee10 (Jakarta Servlet 6), embedded; the web app deployed as a WebAppContext. A
 * redeploy starts a new WebAppContext for the same web app, as Jetty's deployer does: a stopped
 * one that starts again keeps a NamingDump (which holds the old class loader) per start, since
 * Jetty 12.1's EnvConfiguration adds one on configure and removes another type on deconfigure.
 */
final class JettyContainer implements Container {
    private Server server;
    private ServerConnector connector;
    private final ContextHandlerCollection contexts = new ContextHandlerCollection();
    private WebAppContext context;
    private Path webApp;
    private String contextPath;
    private String failure = "";

    @Override
    public boolean deploy(Path webApp, String contextPath) throws Exception {
        server = new Server();
        connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        this.webApp = webApp;
        this.contextPath = contextPath;
        server.setHandler(contexts);
        contexts.addHandler(newContext());
        try {
            server.start();
        } catch (Exception e) {
            failure = String.valueOf(e);
            return false;
        }
        if (!context.isAvailable()) {
            failure = String.valueOf(context.getUnavailableException());
            return false;
        }
        return true;
    }

    private WebAppContext newContext() {
        context = new WebAppContext(webApp.toString(), contextPath);
        context.setThrowUnavailableOnStartupException(true);
        // Tomcat's WebSocket initializer is on the test's class path too: Jetty must not run it.
        context.setAttribute("org.eclipse.jetty.containerInitializerExclusionPattern", "org\\.apache\\..*");
        JakartaWebSocketServletContainerInitializer.configure(context, null);
        return context;
    }

    @Override
    public URI base() {
        return URI.create("http://127.0.0.1:" + connector.getLocalPort() + context.getContextPath() + "/");
    }

    @Override
    public void undeploy() throws Exception {
        context.stop();
        contexts.removeHandler(context);
        context.destroy();
    }

    @Override
    public void redeploy() throws Exception {
        contexts.addHandler(newContext());
        context.start();
    }

    @Override
    public ClassLoader loader() {
        return context.getClassLoader();
    }

    @Override
    public String failure() {
        return failure;
    }

    @Override
    public void close() throws Exception {
        if (server != null) {
            server.stop();
        }
    }
}
