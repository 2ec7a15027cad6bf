# frozen_string_literal: true

require "open3"
require "openssl"

# Certificates for the TLS specs, made with the openssl CLI in a directory the spec owns:
#
#   certs = TestCertificates.new(dir)
#   certs.server("server")        # => ["dir/server.pem", "dir/server.key"], self-signed for 127.0.0.1
#   certs.keystore("server", "s3cret")  # => "dir/server.p12" of that pair
#   certs.client("alice", ca: "ca")     # => pem, key of a client certificate signed by dir/ca.pem
class TestCertificates
  def initialize(dir)
    @dir = dir
  end

  def path(name) = File.join(@dir, name)

  # A self-signed certificate for localhost and 127.0.0.1 (a CA too: it may sign others).
  def server(name, cn: "localhost")
    openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", path("#{name}.key"), "-out", path("#{name}.pem"), "-days", "2", "-subj", "/CN=#{cn}",
            "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost")
    [path("#{name}.pem"), path("#{name}.key")]
  end

  def keystore(name, password)
    openssl("pkcs12", "-export", "-in", path("#{name}.pem"), "-inkey", path("#{name}.key"),
            "-out", path("#{name}.p12"), "-passout", "pass:#{password}")
    path("#{name}.p12")
  end

  # A client certificate signed by the certificate +ca+ made by #server.
  def client(name, ca:)
    openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", path("#{name}.key"),
            "-out", path("#{name}.csr"), "-subj", "/CN=#{name}")
    openssl("x509", "-req", "-in", path("#{name}.csr"), "-CA", path("#{ca}.pem"), "-CAkey", path("#{ca}.key"),
            "-CAcreateserial", "-out", path("#{name}.pem"), "-days", "2")
    [path("#{name}.pem"), path("#{name}.key")]
  end

  # The base64 SHA-256 of +name+'s public key (SubjectPublicKeyInfo), the form Chromium's
  # --ignore-certificate-errors-spki-list takes: the certificate is then trusted outright, as a
  # real one would be, where --ignore-certificate-errors leaves a certificate error that turns
  # some features off (Early Hints among them).
  def spki(name)
    der = OpenSSL::X509::Certificate.new(File.read(path("#{name}.pem"))).public_key.to_der
    [OpenSSL::Digest::SHA256.digest(der)].pack("m0")
  end

  # Runs the openssl CLI with +args+; returns [stdout+stderr, Process::Status], bounded in time.
  def self.run(*args, input: "")
    Open3.capture2e("timeout", "30", "openssl", *args, stdin_data: input)
  end

  private

  def openssl(*args)
    out, status = self.class.run(*args)
    raise "openssl #{args.first} failed: #{out}" unless status.success?
  end
end
