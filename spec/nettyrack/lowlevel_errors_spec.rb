# frozen_string_literal: true

require "stringio"
require "nettyrack/lowlevel_errors"

RSpec.describe Nettyrack::LowlevelErrors do
  let(:err) { StringIO.new }
  let(:env) { { "REQUEST_METHOD" => "GET", "PATH_INFO" => "/boom" } }
  let(:app) { ->(env) { env["PATH_INFO"] == "/boom" ? raise(KeyError, "missing") : [200, {}, ["ok"]] } }

  it "passes answers through, and sends the handler's response when the app raises" do
    handler = ->(error, _env, status) { [status, { "content-type" => "text/plain" }, ["sorry: #{error.message}"]] }
    wrapped = described_class.new(app, handler, err: err)
    expect(wrapped.call("PATH_INFO" => "/")).to eq([200, {}, ["ok"]])
    expect(wrapped.call(env)).to eq([500, { "content-type" => "text/plain" }, ["sorry: missing"]])
    expect(err.string).to eq("nettyrack: GET /boom: the app raised KeyError: missing; the lowlevel_error_handler answered\n")
  end

  it "takes handlers of one or two arguments, and objects with #call" do
    expect(described_class.new(app, ->(error) { [503, {}, [error.class.name]] }, err: err).call(env)).to eq([503, {}, ["KeyError"]])
    handler = Class.new { def call(_error, env) = [502, {}, [env["PATH_INFO"]]] }.new
    expect(described_class.new(app, handler, err: err).call(env)).to eq([502, {}, ["/boom"]])
  end

  it "leaves the exception to the server's 500 when the handler raises or answers nothing" do
    expect { described_class.new(app, ->(_e) { raise "worse" }, err: err).call(env) }.to raise_error(KeyError, "missing")
    expect(err.string).to eq("nettyrack: the lowlevel_error_handler raised RuntimeError: worse; the server answers 500\n")
    expect { described_class.new(app, ->(_e) { nil }, err: StringIO.new).call(env) }.to raise_error(KeyError)
  end
end
