# frozen_string_literal: true

require "tempfile"
require_relative "errors"

module Nettyrack
  # The requests a warm-up runs through the app before the server accepts connections (so the
  # JIT has compiled them when users arrive), as --warmup FILE, `warmup` in a config file, or
  # the default of a hot restart's new process (GET /). A file has one request a line:
  #
  #   # config/warmup.txt
  #   GET /
  #   GET /products/1
  #   POST /search q=shoes               # the rest of the line is the body
  #     content-type: application/x-www-form-urlencoded
  #
  # A line that starts with a space and reads "Name: value" gives the request above a header;
  # blank lines and # comments are skipped. Bodies starting with { or [ are sent as JSON, others
  # as a form, unless a content-type header says otherwise. The requests go round in turn: name
  # ones that are safe to repeat. .plan makes the Java WarmupPlan the server runs.
  #
  # Flow: --warmup / warmup (RestartSettings) → Configuration → Lifetime → here (a WarmupPlan) →
  #   Server#warm_up (Java).
  module Warmup
    Request = Struct.new(:method, :target, :headers, :body) do
      def to_s = "#{method} #{target}"
    end

    METHOD = /\A[A-Z][A-Z0-9!#$%&'*+.^_`|~-]*\z/
    DEFAULT = [Request.new("GET", "/", [], "")].freeze
    # Where a hot restart's old process wrote the targets of the GET requests it answered last
    # (--warmup recent), one a line, for its new process.
    RECENT = "NETTYRACK_WARMUP_RECENT"

    module_function

    # The GET requests the old process of a hot restart answered last, as it handed them over in
    # +env+; nil when none were (a plain start), DEFAULT when it had none to give.
    def recent(env)
      path = env[RECENT]
      return nil if path.to_s.empty?

      targets = File.readlines(path, chomp: true).select { |target| target.start_with?("/") }
      targets.empty? ? DEFAULT : targets.map { |target| Request.new("GET", target, [], "") }
    rescue SystemCallError
      DEFAULT
    end

    # Writes +targets+ for a new process to read back with .recent (a file only its owner reads);
    # returns its path.
    def write_recent(targets)
      file = Tempfile.create(["nettyrack-warmup-recent", ".txt"])
      file.chmod(0o600)
      file.write(targets.map { |target| "#{target}\n" }.join)
      file.close
      file.path
    end

    # The requests of a warm-up file; ConfigError, with the file and line, for anything else.
    def read(path)
      parse(File.read(path), path)
    rescue SystemCallError => e
      raise ConfigError, "cannot read warm-up file #{path}: #{Nettyrack.describe_system_error(e)}"
    end

    def parse(text, source)
      requests = []
      text.each_line.with_index(1) do |line, number|
        next if line.strip.empty? || line.lstrip.start_with?("#")

        if line.match?(/\A[ \t]/)
          raise ConfigError, "#{source}:#{number}: a header line before any request" if requests.empty?

          requests.last.headers << header(line.strip, "#{source}:#{number}")
        else
          requests << request_line(line.strip, "#{source}:#{number}")
        end
      end
      raise ConfigError, "#{source}: no requests in it (one a line, such as GET /)" if requests.empty?

      requests
    end

    def request_line(line, where)
      method, target, body = line.split(/\s+/, 3)
      unless METHOD.match?(method) && target&.start_with?("/")
        raise ConfigError, "#{where}: not a request: #{line.inspect} (write METHOD /path [body], such as GET /)"
      end

      Request.new(method, target, [], body.to_s)
    end

    def header(text, where)
      name, value = text.split(/:\s*/, 2)
      raise ConfigError, "#{where}: not a header: #{text.inspect} (write Name: value)" unless value && name.match?(/\A[!#$%&'*+.^_`|~0-9A-Za-z-]+\z/)

      [name, value]
    end

    # The DSL's block form:
    #   warmup do
    #     get "/"
    #     get "/products/1", "accept" => "application/json"
    #     post "/search", "q=shoes"
    #   end
    class Builder
      attr_reader :requests

      def initialize
        @requests = []
      end

      %w[GET HEAD DELETE OPTIONS].each do |verb|
        define_method(verb.downcase) { |target, headers = {}| add(verb, target, "", headers) }
      end

      %w[POST PUT PATCH].each do |verb|
        define_method(verb.downcase) { |target, body = "", headers = {}| add(verb, target, body, headers) }
      end

      def request(method, target, body: "", headers: {})
        add(method.to_s.upcase, target, body, headers)
      end

      private

      def add(method, target, body, headers)
        line = Warmup.request_line("#{method} #{target}", "warmup")
        line.body = body.to_s
        line.headers = headers.map { |name, value| [name.to_s, value.to_s] }
        @requests << line
        nil
      end
    end

    # The Java plan: +requests+ over +connections+ connections with this Host, for at most
    # +seconds+ and +count+ answers (0: no count).
    def plan(requests, connections:, host:, seconds:, count:)
      plan = Java::OrgNettyrackCoreWarmup::WarmupPlan
      java_requests = requests.map do |request|
        headers = with_content_type(request).map { |name, value| plan::Header.new(name, value) }
        plan::Request.new(request.method, request.target, headers, request.body.to_java_bytes)
      end
      plan.new(java_requests, connections, host, (seconds * 1000).round, count)
    end

    def with_content_type(request)
      return request.headers if request.body.empty? || request.headers.any? { |name, _| name.casecmp?("content-type") }

      json = request.body.start_with?("{", "[")
      [*request.headers, ["content-type", json ? "application/json" : "application/x-www-form-urlencoded"]]
    end

    # The Host a warm-up's requests carry: the first listener's, as a client would name it.
    def host(urls)
      url = urls.find { |u| !u.start_with?("unix:") }
      return "localhost" unless url

      authority = url.split("://", 2).last
      authority.sub(/\A(0\.0\.0\.0|\[::\])(?=:)/, "localhost")
    end
  end
end
