import jakarta.servlet.DispatcherType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import org.eclipse.jetty.ee10.servlet.DefaultServlet;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The JRuby incumbent for bench/rails: a config.ru run by jruby-rack 2.0's RackFilter in an
 * embedded Jetty 12 (ee10), with one shared runtime (jruby.min/max.runtimes = 1, as jruby-rack
 * recommends for thread-safe Rails) and MAX_THREADS Jetty threads.
 *
 *   java -cp "target/bench-rails/lib/*:$JRUBY_HOME/lib/jruby.jar" -Djruby.home=$JRUBY_HOME \
 *     bench/rails_lib/JrubyRackJetty.java PORT APP_DIR [MAX_THREADS]
 */
public final class JrubyRackJetty {
    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        Path app = Path.of(args[1]).toAbsolutePath();
        int threads = args.length > 2 ? Integer.parseInt(args[2]) : 16;
        Server server = new Server(new QueuedThreadPool(threads, Math.min(threads, 8)));
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(port);
        server.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler("/");
        context.setBaseResourceAsPath(app);
        context.setInitParameter("rackup", Files.readString(app.resolve("config.ru")));
        context.setInitParameter("app.root", app.toString());
        context.setInitParameter("jruby.min.runtimes", "1");
        context.setInitParameter("jruby.max.runtimes", "1");
        context.setInitParameter("jruby.rack.logging", "stdout");
        context.addEventListener(new org.jruby.rack.RackServletContextListener());
        context.addFilter(org.jruby.rack.RackFilter.class, "/*", EnumSet.of(DispatcherType.REQUEST));
        context.addServlet(DefaultServlet.class, "/");
        server.setHandler(context);
        server.start();
        System.out.println("jruby-rack on Jetty " + Server.getVersion() + " listening on http://127.0.0.1:" + port);
        server.join();
    }
}
