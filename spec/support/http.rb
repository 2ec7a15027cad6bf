# frozen_string_literal: true

require "net/http"
require "uri"

# HTTP requests from specs to a server under test, each with bounded connect and read times.
module HttpHelpers
  def fetch(url, timeout: 10)
    uri = URI(url)
    Net::HTTP.start(uri.host, uri.port, open_timeout: timeout, read_timeout: timeout) do |http|
      http.get(uri.request_uri)
    end
  end

  def post(url, body, timeout: 10)
    uri = URI(url)
    Net::HTTP.start(uri.host, uri.port, open_timeout: timeout, read_timeout: timeout) do |http|
      http.post(uri.request_uri, body, "content-type" => "application/octet-stream")
    end
  end
end

RSpec.configure { |config| config.include HttpHelpers }
