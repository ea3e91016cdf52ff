import { faceAApi } from '../api/face-a.api.js';
import type { CallData } from '../api/face-a.types.js';

/** The modals' own calls: forgotten password and feedback (login and registration are in face-a.api.ts). */
export const accountApi = faceAApi.injectEndpoints({
  endpoints: (build) => ({
    resetPassword: build.mutation<
      CallData<'user_update_password_phone'>,
      { phone: string; code: string; password: string; password_confirmation: string }
    >({
      query: (fields) => ({ url: '/v1/user_update_password_phone', fields }),
    }),
    feedbackAdd: build.mutation<
      CallData<'feedback_add'>,
      { content: string; contact?: string; category?: string; page?: string }
    >({
      query: (fields) => ({ url: '/v1/feedback_add', fields }),
    }),
  }),
});

export const { useResetPasswordMutation, useFeedbackAddMutation } = accountApi;
