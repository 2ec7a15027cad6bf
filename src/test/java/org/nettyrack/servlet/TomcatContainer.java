package org.nettyrack.servlet;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.catalina.Context;
import org.apache.catalina.Lifecycle;
import org.apache.catalina.LifecycleState;
import org.apache.catalina.Wrapper;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;

/** Tomcat 11 (Jakarta Servlet 6.1) or 10.1 (6.0), whichever is on the class path, embedded; the web app added as with a docBase. */
final class TomcatContainer implements Container {
    /** Tomcat logs every start and stop at INFO; warnings and errors are what a test run needs. */
    private static final Logger QUIET = Logger.getLogger("org.apache");

    static {
        QUIET.setLevel(Level.WARNING);
    }

    private Tomcat tomcat;
    private Connector connector;
    private Context context;
    private String failure = "";

    @Override
    public boolean deploy(Path webApp, String contextPath) throws Exception {
        tomcat = new Tomcat();
        Path base = Files.createTempDirectory("tomcat-");
        // Tomcat unpacks a .war into the host's appBase, which it does not create.
        Files.createDirectories(base.resolve("webapps"));
        tomcat.setBaseDir(base.toString());
        tomcat.setHostname("127.0.0.1");
        connector = new Connector();
        connector.setPort(0);
        connector.setProperty("address", "127.0.0.1");
        tomcat.setConnector(connector);
        // Tomcat's default web.xml also maps JSPs, whose servlet (Jasper) embedded Tomcat lacks.
        tomcat.setAddDefaultWebXmlToWebapp(false);
        context = tomcat.addWebapp(contextPath, webApp.toString());
        // Jetty's WebSocket initializer is on the test's class path too: Tomcat must not run it.
        context.setContainerSciFilter("org\\.eclipse\\..*");
        context.addLifecycleListener(event -> {
            if (Lifecycle.BEFORE_START_EVENT.equals(event.getType())) {
                Wrapper servlet = Tomcat.addServlet(context, "default", "org.apache.catalina.servlets.DefaultServlet");
                servlet.setLoadOnStartup(1);
                servlet.setOverridable(true);
                context.addServletMappingDecoded("/", "default");
                Tomcat.addDefaultMimeTypeMappings(context);
            }
        });
        try {
            tomcat.start();
        } catch (Exception e) {
            failure = String.valueOf(e);
            return false;
        }
        if (context.getState() != LifecycleState.STARTED) {
            failure = "context " + context.getState();
            return false;
        }
        return true;
    }

    @Override
    public URI base() {
        return URI.create("http://127.0.0.1:" + connector.getLocalPort() + context.getPath() + "/");
    }

    @Override
    public void undeploy() throws Exception {
        context.stop();
    }

    @Override
    public void redeploy() throws Exception {
        context.start();
    }

    @Override
    public ClassLoader loader() {
        return context.getLoader().getClassLoader();
    }

    @Override
    public String failure() {
        return failure;
    }

    @Override
    public void close() throws Exception {
        if (tomcat != null) {
            tomcat.stop();
            tomcat.destroy();
        }
    }
}
