package org.nettyrack.servlet;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * The servlet door as a servlet, for those who map one (to {@code /*}) rather than
 * {@link RackFilter}: every method goes to the Rack application through {@link ServletDoor},
 * except a static file under {@code public.root}, which the container's default servlet
 * answers. Mapped below the root ({@code /rack/*}), the servlet path joins the context path in
 * {@code SCRIPT_NAME}. Needs {@link RackListener}.
 */
public final class RackServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    private transient ServletDoor door;

    @Override
    public void init() throws ServletException {
        door = ServletDoor.of(getServletContext());
    }

    /** As {@link RackFilter#destroy}: push connections end while the container's WebSocket support still runs. */
    @Override
    public void destroy() {
        if (door != null) {
            door.close();
        }
    }

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse resp) throws ServletException, IOException {
        if (req.getDispatcherType() == DispatcherType.ASYNC) {
            ServletDoor.resume(req); // an async dispatch always reaches the servlet it started in
            return;
        }
        if (door.metrics.answer(req, resp)) {
            return;
        }
        String file = door.statics.find(req);
        if (file == null) {
            door.serve(req, resp, req.getContextPath() + req.getServletPath(), true);
        } else {
            door.statics.serve(file, req, resp);
        }
    }
}
