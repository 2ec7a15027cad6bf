# frozen_string_literal: true

require "json"
require "net/http"
require "socket"
require_relative "bind"
require_relative "errors"

module Nettyrack
  # One request to a server's control endpoint, for nettyrack ctl: the token goes in an
  # Authorization: Bearer header (so it stays out of any URL log). Returns the body of a 200;
  # anything else raises ControlClient::Failure with one sentence saying what to do.
  #
  #   ControlClient.new(["127.0.0.1", 9293], "s3cret").call(:get, "/stats")  # => "{\"uptime\":...}"
  #   ControlClient.new(Bind.parse("unix:///run/app/ctl.sock"), "s3cret")    # over a unix socket
  #
  # Flow: nettyrack ctl (Ctl) → here → the control endpoint of a running server → stdout.
  class ControlClient
    class Failure < Error; end

    OPEN_TIMEOUT = 5
    # Longer than any control_timeout a thread dump waits for a worker.
    READ_TIMEOUT = 60
    UNREACHABLE = [SystemCallError, SocketError, IOError, Net::OpenTimeout, Net::ReadTimeout].freeze

    # url: [host, port], or a unix Bind.
    def initialize(url, token)
      if url.is_a?(Bind)
        @socket = url.path
      else
        host, @port = url
        @host = { "0.0.0.0" => "127.0.0.1", "::" => "::1" }.fetch(host, host)
      end
      @token = token
    end

    def call(verb, path)
      request = (verb == :post ? Net::HTTP::Post : Net::HTTP::Get).new(path)
      request["authorization"] = "Bearer #{@token}" if @token
      check(@socket ? over_unix_socket(request) : over_tcp(request))
    rescue *UNREACHABLE => e
      raise Failure, "cannot reach the control endpoint at #{address}: #{reason(e)} " \
                     "(is the server running with --control-url #{address}?)"
    end

    private

    def over_tcp(request)
      Net::HTTP.start(@host, @port, open_timeout: OPEN_TIMEOUT, read_timeout: READ_TIMEOUT) { |http| http.request(request) }
    end

    # Net::HTTP speaks only TCP; its request writer and response reader work on any socket.
    def over_unix_socket(request)
      UNIXSocket.open(@socket) do |socket|
        io = Net::BufferedIO.new(socket, read_timeout: READ_TIMEOUT)
        request["host"] = "localhost"
        request["connection"] = "close"
        request.exec(io, "1.1", request.path)
        response = Net::HTTPResponse.read_new(io)
        response.reading_body(io, request.response_body_permitted?) { nil }
        response
      end
    end

    def check(response)
      return response.body if response.code == "200"

      if response.code == "403"
        raise Failure, "the control endpoint at #{address} refused #{@token ? 'the token' : 'a request without a token'} " \
                       "(403); pass the token the server printed at boot with --control-token or $NETTYRACK_CONTROL_TOKEN"
      end
      raise Failure, "#{refusal(response.body)} (409)" if response.code == "409"

      raise Failure, "the control endpoint at #{address} answered #{response.code}: #{response.body.to_s.strip}"
    end

    # The error a refusal carries ({"error":"..."}), else its body.
    def refusal(body)
      JSON.parse(body.to_s).fetch("error", body.to_s.strip)
    rescue JSON::ParserError
      body.to_s.strip
    end

    def address
      return "unix://#{@socket}" if @socket

      "tcp://#{@host.include?(':') ? "[#{@host}]" : @host}:#{@port}"
    end

    def reason(error)
      case error
      when Net::OpenTimeout, Net::ReadTimeout then "no answer within #{error.is_a?(Net::OpenTimeout) ? OPEN_TIMEOUT : READ_TIMEOUT} s"
      when SystemCallError then Nettyrack.describe_system_error(error)
      else error.message
      end
    end
  end
end
