package org.nettyrack.servlet;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * The servlet door as a filter (map it to {@code /*}): a static file under {@code public.root}
 * goes on down the chain to the container's default servlet; every other request goes to the
 * Rack application through {@link ServletDoor}. Needs {@link RackListener}, which also maps the
 * filter for ASYNC dispatches, the way a cut response served off the container's thread comes
 * back to be cut ({@link ServletDoor#resume}).
 */
public final class RackFilter implements Filter {
    private ServletDoor door;

    @Override
    public void init(FilterConfig config) throws ServletException {
        door = ServletDoor.of(config.getServletContext());
    }

    /**
     * The container stops the web app: push connections end here, while its WebSocket support
     * still runs (Tomcat stops that before the listeners hear of it).
     */
    @Override
    public void destroy() {
        if (door != null) {
            door.close();
        }
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
        throws IOException, ServletException {
        if (!(request instanceof HttpServletRequest) || !(response instanceof HttpServletResponse)) {
            chain.doFilter(request, response);
            return;
        }
        HttpServletRequest req = (HttpServletRequest) request;
        HttpServletResponse resp = (HttpServletResponse) response;
        if (req.getDispatcherType() == DispatcherType.ASYNC) {
            ServletDoor.resume(req);
            chain.doFilter(req, resp);
            return;
        }
        if (door.metrics.answer(req, resp)) {
            return;
        }
        String file = door.statics.find(req);
        if (file == null) {
            door.serve(req, resp, req.getContextPath(), door.filterSeesAsync);
        } else if (door.statics.atRoot()) {
            chain.doFilter(req, resp);
        } else {
            door.statics.serve(file, req, resp);
        }
    }
}
