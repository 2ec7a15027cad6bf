package org.nettyrack.servlet;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.File;
import java.io.IOException;
import java.net.MalformedURLException;
import java.util.Locale;

/**
 * The servlet door's public files (the Netty door's are {@code netty.files.PublicFiles}): which
 * requests the container's default servlet answers before Rack, as jruby-rack users
 * expect: a GET or HEAD for a file under {@code public.root} (the web app's root by default,
 * where Warbler puts {@code public/}). Never a directory, nothing under WEB-INF or META-INF.
 */
final class ContainerFiles {
    private final ServletContext context;
    private final String root;

    /** {@code publicRoot}: the context-relative directory of static files; null or "/" for the root. */
    ContainerFiles(ServletContext context, String publicRoot) {
        this.context = context;
        String r = publicRoot == null ? "" : publicRoot.trim();
        while (r.endsWith("/")) {
            r = r.substring(0, r.length() - 1);
        }
        this.root = r.isEmpty() || r.startsWith("/") ? r : "/" + r;
    }

    /** Whether static files are at the web app's root, where a filter chain reaches them as they are. */
    boolean atRoot() {
        return root.isEmpty();
    }

    /** The context-relative path of the static file this request names, or null. */
    String find(HttpServletRequest request) {
        String method = request.getMethod();
        if (!"GET".equals(method) && !"HEAD".equals(method)) {
            return null;
        }
        String path = request.getServletPath() + (request.getPathInfo() == null ? "" : request.getPathInfo());
        if (path.isEmpty() || path.endsWith("/")) {
            return null;
        }
        String candidate = root + path;
        String upper = candidate.toUpperCase(Locale.ROOT);
        if (upper.startsWith("/WEB-INF") || upper.startsWith("/META-INF") || candidate.contains("/../")) {
            return null;
        }
        try {
            if (context.getResource(candidate) == null) {
                return null;
            }
        } catch (MalformedURLException e) {
            return null;
        }
        String real = context.getRealPath(candidate);
        return real == null || new File(real).isFile() ? candidate : null;
    }

    /**
     * Hands the request to the container's default servlet: by name, the request as it is, when
     * static files are at the root; else forwarded to {@code file}'s own path (which must map to
     * the default servlet: a {@link RackServlet} mapped to {@code /*} needs public.root at "/").
     */
    void serve(String file, HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        RequestDispatcher dispatcher = atRoot() ? context.getNamedDispatcher("default") : context.getRequestDispatcher(file);
        if (dispatcher == null) {
            response.sendError(HttpServletResponse.SC_NOT_FOUND);
            return;
        }
        dispatcher.forward(request, response);
    }
}
