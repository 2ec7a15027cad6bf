package org.nettyrack.servlet;

import java.nio.file.Path;

/**
 * The tests' containers ({@link JettyContainer}, {@link TomcatContainer}) from the command line,
 * for the RSpec contract specs (spec/support/servlet_doors.rb): deploys a web app at a context
 * path on 127.0.0.1, port 0, prints one line {@code serving http://127.0.0.1:PORT/CONTEXT/}, and
 * runs until SIGTERM, which stops the container (the web app's listener undeploys it). A failed
 * deployment is one line on stderr and exit status 1.
 *
 *   java -cp target/test-classes:DEPENDENCIES org.nettyrack.servlet.ServeWar jetty|tomcat WAR /shop
 */
public final class ServeWar {
    private ServeWar() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 3 || !(args[0].equals("jetty") || args[0].equals("tomcat"))) {
            System.err.println("usage: ServeWar jetty|tomcat WAR_OR_DIR CONTEXT_PATH");
            System.exit(2);
        }
        Container container = args[0].equals("jetty") ? new JettyContainer() : new TomcatContainer();
        if (!container.deploy(Path.of(args[1]).toAbsolutePath(), args[2])) {
            System.err.println("ServeWar: " + args[1] + " did not deploy in " + args[0] + ": " + container.failure());
            container.close();
            System.exit(1);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                container.close();
            } catch (Exception e) {
                System.err.println("ServeWar: stopping " + args[0] + ": " + e);
            }
        }, "ServeWar stop"));
        System.out.println("serving " + container.base());
        System.out.flush();
        Thread.currentThread().join();
    }
}
