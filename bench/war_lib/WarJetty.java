import java.nio.file.Path;
import org.eclipse.jetty.ee10.webapp.WebAppContext;
import org.eclipse.jetty.ee10.websocket.jakarta.server.config.JakartaWebSocketServletContainerInitializer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The container of bench/war: an embedded Jetty 12 (ee10) deploying one web app (a .war file,
 * which Jetty unpacks under java.io.tmpdir, or an exploded directory) at "/" on 127.0.0.1:PORT,
 * with MAX_THREADS Jetty threads and an accept queue of 1024. The web app brings its own JRuby
 * and Rack bridge in WEB-INF/lib (nettyrack's RackFilter, or jruby-rack's), as in a Jetty
 * installation; a failed deployment exits 1. SIGTERM stops Jetty (which deletes what it unpacked).
 *
 *   java -cp "target/bench-war/jetty/*" bench/war_lib/WarJetty.java PORT WAR_OR_DIR [MAX_THREADS]
 */
public final class WarJetty {
    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        Path webApp = Path.of(args[1]).toAbsolutePath();
        int threads = args.length > 2 ? Integer.parseInt(args[2]) : 16;
        Server server = new Server(new QueuedThreadPool(threads, Math.min(threads, 8)));
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(port);
        // Jetty's default (0) leaves the JDK's backlog of 50: h2load's 100 connections at once then
        // overflow it, and the dropped ones connect a second later (SYN retransmit), which shows
        // up as unfairness. 1024 is the Netty door's backlog.
        connector.setAcceptQueueSize(1024);
        server.addConnector(connector);
        WebAppContext context = new WebAppContext(webApp.toString(), "/");
        context.setThrowUnavailableOnStartupException(true);
        JakartaWebSocketServletContainerInitializer.configure(context, null);
        server.setHandler(context);
        server.setStopAtShutdown(true);
        try {
            server.start();
        } catch (Exception e) {
            System.err.println("WarJetty: " + webApp + " did not deploy: " + e);
            server.stop();
            System.exit(1);
        }
        System.out.println("Jetty " + Server.getVersion() + " serving " + webApp.getFileName()
            + " on http://127.0.0.1:" + port + " with " + threads + " threads");
        server.join();
    }
}
