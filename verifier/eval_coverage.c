/* eval_coverage.c - which SPIR-V opcodes and GLSL.std.450 instructions the
 * evaluator models (tests/unit/test_eval_coverage.c walks the grammar with
 * it and lists the rest).  "Modelled" means executed with its semantics
 * (values, memory, control flow, or nothing to execute for declarations);
 * anything else produces an unknown value of its result type. */
#include "eval_ctx.h"

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.h>

int ev_models_opcode(uint32_t op)
{
    if (op >= SpvOpGroupNonUniformElect && op <= SpvOpGroupNonUniformQuadSwap)
        return 1; /* eval_subgroup.c */
    switch (op) {
    /* declarations, debug information, annotations: nothing to execute */
    case SpvOpNop: case SpvOpSourceContinued: case SpvOpSource: case SpvOpSourceExtension:
    case SpvOpName: case SpvOpMemberName: case SpvOpString: case SpvOpLine: case SpvOpNoLine:
    case SpvOpModuleProcessed: case SpvOpExtension: case SpvOpExtInstImport:
    case SpvOpMemoryModel: case SpvOpEntryPoint: case SpvOpExecutionMode:
    case SpvOpExecutionModeId: case SpvOpCapability: case SpvOpDecorate:
    case SpvOpMemberDecorate: case SpvOpDecorationGroup: case SpvOpGroupDecorate:
    case SpvOpGroupMemberDecorate: case SpvOpDecorateId: case SpvOpDecorateString:
    case SpvOpMemberDecorateString:
    case SpvOpTypeVoid: case SpvOpTypeBool: case SpvOpTypeInt: case SpvOpTypeFloat:
    case SpvOpTypeVector: case SpvOpTypeMatrix: case SpvOpTypeArray:
    case SpvOpTypeRuntimeArray: case SpvOpTypeStruct: case SpvOpTypePointer:
    case SpvOpTypeFunction: case SpvOpTypeForwardPointer:
    case SpvOpConstantTrue: case SpvOpConstantFalse: case SpvOpConstant:
    case SpvOpConstantComposite: case SpvOpConstantNull: case SpvOpSpecConstantTrue:
    case SpvOpSpecConstantFalse: case SpvOpSpecConstant: case SpvOpSpecConstantComposite:
    case SpvOpSpecConstantOp: case SpvOpUndef:
    /* functions and control flow (eval.c) */
    case SpvOpFunction: case SpvOpFunctionParameter: case SpvOpFunctionEnd:
    case SpvOpFunctionCall: case SpvOpLabel: case SpvOpBranch: case SpvOpBranchConditional:
    case SpvOpSwitch: case SpvOpReturn: case SpvOpReturnValue: case SpvOpKill:
    case SpvOpTerminateInvocation: case SpvOpUnreachable: case SpvOpSelectionMerge:
    case SpvOpLoopMerge: case SpvOpPhi: case SpvOpControlBarrier: case SpvOpMemoryBarrier:
    /* memory (eval_memory.c) */
    case SpvOpVariable: case SpvOpLoad: case SpvOpStore: case SpvOpCopyMemory:
    case SpvOpAccessChain: case SpvOpInBoundsAccessChain: case SpvOpArrayLength:
    case SpvOpAtomicLoad: case SpvOpAtomicStore: case SpvOpAtomicExchange:
    case SpvOpAtomicCompareExchange: case SpvOpAtomicIIncrement: case SpvOpAtomicIDecrement:
    case SpvOpAtomicIAdd: case SpvOpAtomicISub: case SpvOpAtomicSMin: case SpvOpAtomicUMin:
    case SpvOpAtomicSMax: case SpvOpAtomicUMax: case SpvOpAtomicAnd: case SpvOpAtomicOr:
    case SpvOpAtomicXor: case SpvOpAtomicFAddEXT:
    /* values (eval_values.c) */
    case SpvOpIAdd: case SpvOpISub: case SpvOpIMul: case SpvOpUDiv: case SpvOpSDiv:
    case SpvOpUMod: case SpvOpSRem: case SpvOpSMod: case SpvOpShiftLeftLogical:
    case SpvOpShiftRightLogical: case SpvOpShiftRightArithmetic: case SpvOpBitwiseAnd:
    case SpvOpBitwiseOr: case SpvOpBitwiseXor: case SpvOpNot: case SpvOpSNegate:
    case SpvOpFAdd: case SpvOpFSub: case SpvOpFMul: case SpvOpFDiv: case SpvOpFRem:
    case SpvOpFMod: case SpvOpFNegate: case SpvOpVectorTimesScalar: case SpvOpDot:
    case SpvOpLogicalNot: case SpvOpLogicalAnd: case SpvOpLogicalOr: case SpvOpLogicalEqual:
    case SpvOpLogicalNotEqual: case SpvOpIEqual: case SpvOpINotEqual: case SpvOpULessThan:
    case SpvOpSLessThan: case SpvOpULessThanEqual: case SpvOpSLessThanEqual:
    case SpvOpUGreaterThan: case SpvOpSGreaterThan: case SpvOpUGreaterThanEqual:
    case SpvOpSGreaterThanEqual: case SpvOpFOrdEqual: case SpvOpFUnordEqual:
    case SpvOpFOrdNotEqual: case SpvOpFUnordNotEqual: case SpvOpFOrdLessThan:
    case SpvOpFUnordLessThan: case SpvOpFOrdGreaterThan: case SpvOpFUnordGreaterThan:
    case SpvOpFOrdLessThanEqual: case SpvOpFUnordLessThanEqual:
    case SpvOpFOrdGreaterThanEqual: case SpvOpFUnordGreaterThanEqual: case SpvOpIsNan:
    case SpvOpIsInf: case SpvOpAny: case SpvOpAll: case SpvOpSelect:
    case SpvOpConvertFToU: case SpvOpConvertFToS: case SpvOpConvertSToF:
    case SpvOpConvertUToF: case SpvOpUConvert: case SpvOpSConvert: case SpvOpFConvert:
    case SpvOpQuantizeToF16: case SpvOpBitcast: case SpvOpCopyObject:
    case SpvOpCompositeConstruct: case SpvOpCompositeExtract: case SpvOpCompositeInsert:
    case SpvOpVectorShuffle: case SpvOpVectorExtractDynamic: case SpvOpVectorInsertDynamic:
    case SpvOpUMulExtended: case SpvOpSMulExtended: case SpvOpIAddCarry:
    case SpvOpISubBorrow: case SpvOpBitCount: case SpvOpBitReverse:
    case SpvOpBitFieldUExtract: case SpvOpBitFieldSExtract: case SpvOpBitFieldInsert:
    case SpvOpExtInst:
        return 1;
    default:
        return 0;
    }
}

int ev_models_glsl(uint32_t fn)
{
    switch (fn) {
    case GLSLstd450Round: case GLSLstd450RoundEven: case GLSLstd450Trunc:
    case GLSLstd450FAbs: case GLSLstd450SAbs: case GLSLstd450FSign: case GLSLstd450Floor:
    case GLSLstd450Ceil: case GLSLstd450Fract: case GLSLstd450Sin: case GLSLstd450Cos:
    case GLSLstd450Tan: case GLSLstd450Asin: case GLSLstd450Acos: case GLSLstd450Atan:
    case GLSLstd450Sinh: case GLSLstd450Cosh: case GLSLstd450Tanh: case GLSLstd450Atan2:
    case GLSLstd450Pow: case GLSLstd450Exp: case GLSLstd450Log: case GLSLstd450Exp2:
    case GLSLstd450Log2: case GLSLstd450Sqrt: case GLSLstd450InverseSqrt:
    case GLSLstd450FMin: case GLSLstd450UMin: case GLSLstd450SMin: case GLSLstd450FMax:
    case GLSLstd450UMax: case GLSLstd450SMax: case GLSLstd450FClamp: case GLSLstd450UClamp:
    case GLSLstd450SClamp: case GLSLstd450FMix: case GLSLstd450Step: case GLSLstd450Fma:
    case GLSLstd450NMin: case GLSLstd450NMax: case GLSLstd450NClamp:
    case GLSLstd450FindILsb: case GLSLstd450FindSMsb: case GLSLstd450FindUMsb:
    case GLSLstd450Length: case GLSLstd450Distance:
    case GLSLstd450PackSnorm4x8: case GLSLstd450PackUnorm4x8: case GLSLstd450PackSnorm2x16:
    case GLSLstd450PackUnorm2x16: case GLSLstd450PackHalf2x16: case GLSLstd450PackDouble2x32:
    case GLSLstd450UnpackSnorm2x16: case GLSLstd450UnpackUnorm2x16:
    case GLSLstd450UnpackHalf2x16: case GLSLstd450UnpackSnorm4x8:
    case GLSLstd450UnpackUnorm4x8: case GLSLstd450UnpackDouble2x32:
        return 1;
    default:
        return 0;
    }
}
