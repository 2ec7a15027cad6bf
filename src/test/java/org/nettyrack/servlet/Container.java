package org.nettyrack.servlet;

import java.net.URI;
import java.nio.file.Path;

/** An embedded servlet container with one web app deployed, for the door's tests. */
interface Container extends AutoCloseable {
    /**
     * Starts the container on 127.0.0.1, port 0, with the web app at {@code contextPath}.
     * Returns false, instead of throwing, when the web app failed to deploy.
     */
    boolean deploy(Path webApp, String contextPath) throws Exception;

    /** http://127.0.0.1:PORT/CONTEXT/ */
    URI base();

    /** Stops the web app (its listener's contextDestroyed runs), leaving the container up. */
    void undeploy() throws Exception;

    /** Starts the web app again after {@link #undeploy}. */
    void redeploy() throws Exception;

    /** The web app's class loader, while it is deployed. */
    ClassLoader loader();

    /** What the container said about a failed deployment. */
    String failure();

    @Override
    void close() throws Exception;
}
