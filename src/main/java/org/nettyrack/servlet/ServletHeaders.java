package org.nettyrack.servlet;

import jakarta.servlet.http.HttpServletResponse;
import org.nettyrack.core.HttpDate;
import org.nettyrack.core.ResponseHeaders;

/**
 * The application's response headers onto the servlet response, for the door's answers and
 * push heads alike. Framing fields are the container's and are left out. A response has one
 * {@code Date} (RFC 9110 6.6.1): the application's when it gave one, else the server's; it is
 * set, not added, because a container may have put its own there already (Jetty does when the
 * response starts, Tomcat only when none is set at commit).
 */
final class ServletHeaders {
    private ServletHeaders() {
    }

    static void copy(HttpServletResponse response, int status, ResponseHeaders headers) {
        boolean dated = false;
        for (int i = 0; i < headers.size(); i++) {
            String name = headers.name(i);
            if (name.equalsIgnoreCase("date")) {
                if (!dated) {
                    response.setHeader("date", headers.value(i));
                    dated = true;
                }
            } else if (!name.equalsIgnoreCase("transfer-encoding") && !name.equalsIgnoreCase("content-length")) {
                response.addHeader(name, headers.value(i));
            }
        }
        if (!dated) {
            dateIfFinal(response, status);
        }
    }

    /** The server's {@code Date}, replacing any the container put there, on a final response. */
    static void dateIfFinal(HttpServletResponse response, int status) {
        if (HttpDate.applies(status)) {
            response.setHeader("date", HttpDate.SYSTEM.current());
        }
    }
}
