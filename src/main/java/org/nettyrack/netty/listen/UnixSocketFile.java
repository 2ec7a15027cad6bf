package org.nettyrack.netty.listen;

import java.io.IOException;
import java.net.BindException;
import java.net.ConnectException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;
import org.nettyrack.core.config.Bind;

/**
 * The file of one {@code unix://} listener, around its bind: {@link #prepare} clears the way
 * (a stale socket, one no server answers on, is deleted; a path a live server answers on, or
 * a file that is no socket, is refused), {@link #bound} applies the {@code mode} param. The
 * file goes when the listener closes: Netty's domain server channels (epoll and NIO) delete it.
 */
final class UnixSocketFile {
    private static final int TYPE_BITS = 0170000;
    private static final int SOCKET_TYPE = 0140000;
    private static final PosixFilePermission[] PERMISSIONS = {
        PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_READ,
        PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
        PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_READ,
    };

    private final String url;
    private final Path path;
    private final String mode;

    UnixSocketFile(Bind bind) {
        this.url = bind.url();
        this.path = Path.of(bind.path()).toAbsolutePath();
        this.mode = bind.params().get("mode");
    }

    Path path() {
        return path;
    }

    /** Deletes a stale socket at the path; throws {@link BindException} saying why the path cannot be used. */
    void prepare() throws BindException {
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return;
        } catch (IOException e) {
            throw new BindException("cannot listen on " + url + ": " + e.getMessage());
        }
        if (!isSocket(attributes)) {
            throw new BindException(url + " exists and is not a socket; remove it or choose another path");
        }
        if (answers()) {
            throw new BindException(url + " is in use by another server");
        }
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            throw new BindException("cannot remove the stale socket " + url + ": " + e.getMessage());
        }
    }

    /** After the bind: applies the mode param, if any. */
    void bound() throws BindException {
        if (mode == null) {
            return;
        }
        try {
            Files.setPosixFilePermissions(path, permissions(Integer.parseInt(mode, 8)));
        } catch (IOException | UnsupportedOperationException e) {
            throw new BindException("cannot set mode " + mode + " on " + url + ": " + e.getMessage());
        }
    }

    static Set<PosixFilePermission> permissions(int bits) {
        Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
        for (int i = 0; i < PERMISSIONS.length; i++) {
            if ((bits & (1 << i)) != 0) {
                set.add(PERMISSIONS[i]);
            }
        }
        return set;
    }

    private boolean isSocket(BasicFileAttributes attributes) {
        if (!attributes.isOther()) {
            return false;
        }
        try {
            int st = (Integer) Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS);
            return (st & TYPE_BITS) == SOCKET_TYPE;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return true; // no unix view: "other" is the closest this platform tells
        }
    }

    /** Whether a server accepts connections on the socket: refused means nobody listens. */
    private boolean answers() throws BindException {
        try (SocketChannel probe = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            probe.connect(UnixDomainSocketAddress.of(path));
            return true;
        } catch (ConnectException e) {
            return false;
        } catch (IOException e) {
            throw new BindException("cannot tell whether " + url + " is in use: " + e.getMessage());
        }
    }
}
